import { useState } from "react";
import { CurveChart } from "../../charts/CurveChart";
import type { CurveChartConfig } from "../../charts/curveConfig";
import { Card } from "../../components/Card";
import { PageHeader } from "../../components/PageHeader";
import { StatCard } from "../../components/StatCard";
import { TextField } from "../../components/TextField";
import { formatByteRate, formatBytes, formatCount, formatDecimal } from "../../lib/format";
import { useDocumentTitle } from "../../lib/useDocumentTitle";
import { DEFAULT_LINK, curveRows, h1Rate, h2Rate, linkProblems, type LinkInputs } from "./connections";
import { PoliciesNav } from "./PolicyRuns";
import styles from "./Policies.module.css";

const FIELDS: { key: keyof LinkInputs; label: string; step: string }[] = [
  { key: "rttMs", label: "Round-trip time (ms)", step: "1" },
  { key: "bandwidthMbitPerS", label: "Link bandwidth (Mbit/s)", step: "1" },
  { key: "h1Connections", label: "HTTP/1.1 connections k", step: "1" },
  { key: "h2Streams", label: "HTTP/2 streams R (1 connection)", step: "1" },
  { key: "h1HeaderBytes", label: "HTTP/1.1 headers (bytes/message)", step: "10" },
  { key: "h2HeaderBytes", label: "HTTP/2 headers, compressed (bytes)", step: "10" },
  { key: "otherConnections", label: "Other connections on the bottleneck", step: "1" },
];
const SAMPLE_BYTES = 10_000;
const CLIENTS = 1000;
const POINTS = 21; // four per decade of payload size

const CHART: CurveChartConfig = {
  id: "connections-chart",
  title: "Payload rate against payload size",
  description:
    "Payload rate of one client (log scale) against payload size (log scale) for HTTP/1.1 with k connections and HTTP/2 with R streams on one connection, alone on the link and sharing a congested bottleneck.",
  xLabel: "payload size (log scale)",
  yLabel: "payload rate (log scale)",
  // tick labels such as "12.5 MB/s": the title needs room beside them
  yAxisWidth: 92,
  xUnit: (v) => formatBytes(10 ** v),
  yUnit: (v) => formatByteRate(10 ** v),
  series: [
    { key: "h1", label: "HTTP/1.1, alone", color: "chart-requests" },
    { key: "h2", label: "HTTP/2, alone", color: "chart-throughput" },
    { key: "h1Shared", label: "HTTP/1.1, shared bottleneck", color: "chart-requests", dashed: true },
    { key: "h2Shared", label: "HTTP/2, shared bottleneck", color: "chart-throughput", dashed: true },
  ],
  marks: [],
};

export function ConnectionsPage() {
  useDocumentTitle("Connections vs streams");
  const [text, setText] = useState<Record<keyof LinkInputs, string>>(
    () => Object.fromEntries(Object.entries(DEFAULT_LINK).map(([k, v]) => [k, String(v)])) as Record<keyof LinkInputs, string>,
  );
  const link = Object.fromEntries(Object.entries(text).map(([k, v]) => [k, Number(v)])) as unknown as LinkInputs;
  const problems = linkProblems(link);
  const valid = Object.keys(problems).length === 0;
  const rows = valid ? curveRows(link, POINTS) : [];

  return (
    <div className={styles.stack}>
      <PageHeader
        title="Connections vs streams"
        subtitle="How much payload one client moves with HTTP/1.1 connections or HTTP/2 streams, and how many server connections each protocol costs."
      />
      <PoliciesNav />
      <div className={styles.grid}>
        <Card title="Link and client">
          <form className={styles.form} aria-label="Link and client" onSubmit={(e) => e.preventDefault()}>
            {FIELDS.map((f) => (
              <div key={f.key}>
                <TextField
                  label={f.label}
                  type="number"
                  min="0"
                  step={f.step}
                  value={text[f.key]}
                  aria-invalid={problems[f.key] !== undefined}
                  onChange={(e) => setText({ ...text, [f.key]: e.target.value })}
                />
                {problems[f.key] !== undefined && <p className={styles.error}>{problems[f.key]}</p>}
              </div>
            ))}
          </form>
        </Card>
        <div className={styles.stack}>
          <Card
            subtitle="Small payloads are latency-limited (inflight × size / RTT): streams and connections count alike. Large payloads are bandwidth-limited; on a shared bottleneck TCP shares per connection, so k connections grab more than one multiplexed connection."
          >
            {valid ? <CurveChart config={CHART} rows={rows} /> : <p className={styles.error}>Fix the inputs to draw the chart.</p>}
          </Card>
          {valid && <Summary link={link} />}
        </div>
      </div>
    </div>
  );
}

function Summary({ link }: { link: LinkInputs }) {
  const ratioAlone = h2Rate(SAMPLE_BYTES, link) / h1Rate(SAMPLE_BYTES, link);
  const ratioShared = h1Rate(10_000_000, link, true) / h2Rate(10_000_000, link, true);
  return (
    <Card title="What it means" subtitle={`At ${formatBytes(SAMPLE_BYTES)} payloads, and for ${formatCount(CLIENTS)} clients`}>
      <div className={styles.stats}>
        <StatCard label="HTTP/1.1, alone" value={formatByteRate(h1Rate(SAMPLE_BYTES, link))} testId="stat-h1" />
        <StatCard label="HTTP/2, alone" value={formatByteRate(h2Rate(SAMPLE_BYTES, link))} hint={`${formatDecimal(ratioAlone, 2)}× HTTP/1.1`} testId="stat-h2" />
        <StatCard
          label="HTTP/1.1 over HTTP/2, 10 MB on the bottleneck"
          value={`${formatDecimal(ratioShared, 2)}×`}
          hint={`approaching k = ${link.h1Connections} connections to 1`}
        />
        <StatCard
          label="Server connections held"
          value={`${formatCount(CLIENTS * link.h1Connections)} vs ${formatCount(CLIENTS)}`}
          hint={`HTTP/1.1 vs HTTP/2: multiplexing saves ${formatCount(CLIENTS * (link.h1Connections - 1))} connections`}
          testId="stat-connections"
        />
      </div>
    </Card>
  );
}
