import { UploadPage } from "../features/upload/UploadPage";

export default function UploadRoute() {
  return <UploadPage />;
}
