import { useQuery } from "@tanstack/react-query";
import { isNotFound } from "../../api/client";
import { ButtonLink } from "../../components/Button";
import { Card } from "../../components/Card";
import { EmptyState } from "../../components/EmptyState";
import { ErrorBanner } from "../../components/ErrorBanner";
import { Logo } from "../../components/Logo";
import { PageHeader } from "../../components/PageHeader";
import { Loading } from "../../components/Spinner";
import { formatDateTime } from "../../lib/format";
import { useDocumentTitle } from "../../lib/useDocumentTitle";
import { getPublicReport, publicExportUrl } from "./api";
import { ReportBody } from "./ReportItemView";
import styles from "./Reports.module.css";

/** What a public link shows: the report, read-only, and nothing else of the app. */
export function PublicReportPage({ token }: { token: string }) {
  const report = useQuery({ queryKey: ["public-report", token], queryFn: () => getPublicReport(token), retry: false, staleTime: Infinity });
  useDocumentTitle(report.data?.title ?? "Shared report");
  return (
    <div className={styles.public}>
      <div className={styles.publicHead}>
        <Logo size={20} /> Headroom · a read-only shared report
      </div>
      {report.isPending && <Loading label="Loading the report…" />}
      {report.isError &&
        (isNotFound(report.error) ? (
          <Card>
            <EmptyState title="Report not found" testId="public-not-found">
              This link does not exist, has expired or was revoked. Ask whoever sent it for a new one.
            </EmptyState>
          </Card>
        ) : (
          <ErrorBanner error={report.error} title="Could not load the report" hint="Reload the page to try again." />
        ))}
      {report.data !== undefined && (
        <>
          <PageHeader
            title={report.data.title}
            titleTestId="report-title"
            subtitle={`Updated ${formatDateTime(report.data.updated_at)}`}
            actions={
              <ButtonLink to={publicExportUrl(token, "html")} reloadDocument download variant="secondary" size="small">
                Download HTML
              </ButtonLink>
            }
          />
          <ReportBody notesHtml={report.data.notes_html} items={report.data.items} />
        </>
      )}
    </div>
  );
}
