/** A multi-tier run's per tier results: the table of figures, VMs, pool sizes and utilisation per tier. */
import { Card } from "../../../components/Card";
import tableStyles from "../../../components/Table.module.css";
import type { RunDocument } from "../results";
import { SimChart } from "../../../charts/SimChart";
import { tierPoolChart, tierRows, tiersOfRun, tierUtilizationChart, tierVmChart } from "./tierDoc";
import styles from "../Simulations.module.css";

export function TierResults({ doc }: { doc: RunDocument }) {
  const figures = doc.summary.tiers;
  if (figures === undefined || figures === null) return null;
  const series = tiersOfRun(doc);
  const names = series?.tiers.map((t) => t.name) ?? Object.keys(figures);
  const rows = tierRows(names, figures);
  return (
    <>
      <Card title="Tiers" subtitle={`A request visits ${names.join(" → ")}; latencies above are end to end, the VM charts above are the scaled tier's${series?.scaled != null ? ` (${series.scaled})` : ""}.`} flush testId="tier-results">
        <div className={tableStyles.scroll}>
          <table className={tableStyles.table} data-testid="tier-table">
            <thead>
              <tr>
                <th scope="col">Per tier</th>
                {names.map((n) => (
                  <th key={n} scope="col" className={tableStyles.numeric}>
                    {n}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.label}>
                  <th scope="row">
                    {r.label} <span className={styles.unit}>({r.unit})</span>
                  </th>
                  {r.values.map((v, i) => (
                    <td key={i} className={tableStyles.numeric}>
                      {v}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </Card>
      {series !== null && (
        <div className={styles.charts}>
          <Card>
            <SimChart {...tierVmChart(doc, series)} />
          </Card>
          <Card>
            <SimChart {...tierUtilizationChart(doc, series)} />
          </Card>
          <Card className={styles.wide}>
            <SimChart {...tierPoolChart(doc, series)} height={320} />
          </Card>
        </div>
      )}
    </>
  );
}
