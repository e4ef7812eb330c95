import { AcceptInvitePage } from "../features/settings/AcceptInvitePage";

export default function AcceptInviteRoute() {
  return <AcceptInvitePage />;
}
