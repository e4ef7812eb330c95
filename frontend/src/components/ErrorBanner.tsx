import type { ReactNode } from "react";
import { asApiError } from "../api/errors";
import { formatCount } from "../lib/format";
import { Banner } from "./Banner";
import bannerStyles from "./Banner.module.css";

interface ErrorBannerProps {
  error: unknown;
  title?: string;
  /** What the user can do about it. */
  hint?: ReactNode;
  action?: ReactNode;
}

/** Shows the API's error message (never a stack or "[object Object]"). */
export function ErrorBanner({ error, title = "Something went wrong", hint, action }: ErrorBannerProps) {
  const apiError = asApiError(error);
  const bad = apiError.unparseable;
  return (
    <Banner tone="error" title={title} testId="error-banner">
      <p>{apiError.message}</p>
      {bad !== null && (
        <>
          <p className={bannerStyles.muted}>
            Line {formatCount(bad.line_number)}
            {bad.closest_format !== null && ` (closest format: ${bad.closest_format})`}:
          </p>
          <pre className={bannerStyles.line} data-testid="error-line">
            {bad.line}
          </pre>
        </>
      )}
      {hint !== undefined && <p className={bannerStyles.muted}>{hint}</p>}
      {action !== undefined && <div>{action}</div>}
    </Banner>
  );
}
