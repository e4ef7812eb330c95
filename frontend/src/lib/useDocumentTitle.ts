import { useEffect } from "react";

/** "Datasets · Headroom" in the browser tab and history. */
export function useDocumentTitle(title: string | null): void {
  useEffect(() => {
    document.title = title === null || title === "" ? "Headroom" : `${title} · Headroom`;
  }, [title]);
}
