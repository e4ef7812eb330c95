import { ButtonLink } from "../components/Button";
import { Card } from "../components/Card";
import { EmptyState } from "../components/EmptyState";

export function NotFoundPage() {
  return (
    <Card>
      <EmptyState title="Page not found" action={<ButtonLink to="/datasets">Go to datasets</ButtonLink>}>
        The address does not match any page in Headroom.
      </EmptyState>
    </Card>
  );
}

export default NotFoundPage;
