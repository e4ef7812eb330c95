import { TeamPage } from "../features/settings/TeamPage";

export default function TeamRoute() {
  return <TeamPage />;
}
