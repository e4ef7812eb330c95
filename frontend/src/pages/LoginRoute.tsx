import { LoginPage } from "../features/auth/LoginPage";

export default function LoginRoute() {
  return <LoginPage />;
}
