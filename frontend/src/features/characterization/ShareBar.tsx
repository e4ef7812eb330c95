import { colorVar, type ColorToken } from "../../charts/tokens";
import { formatPercent } from "../../lib/format";
import styles from "./Characterization.module.css";
import { classColor, classMix } from "./shaping";

/** Shares of a whole as one segmented bar with a legend (class mix). */
export function ShareBar({
  label,
  shares,
  colors,
  testId,
}: {
  label: string;
  shares: Record<string, number>;
  /** Colours by name; otherwise each class's colour by its place among the sorted names. */
  colors?: Record<string, ColorToken>;
  testId?: string;
}) {
  const mix = classMix(shares);
  const colour = (name: string) => colors?.[name] ?? classColor(Object.keys(shares).sort().indexOf(name));
  const summary = mix.map((m) => `${m.name} ${formatPercent(m.share)}`).join(", ");
  return (
    <figure style={{ margin: 0 }} data-testid={testId}>
      <div className={styles.shareBar} role="img" aria-label={`${label}: ${summary}`}>
        {mix.map((m) => (
          <div key={m.name} title={`${m.name}: ${formatPercent(m.share)}`} style={{ width: `${m.share * 100}%`, background: colorVar(colour(m.name)) }} />
        ))}
      </div>
      <ul className={styles.shareLegend}>
        {mix.map((m) => (
          <li key={m.name}>
            <span className={styles.swatch} style={{ background: colorVar(colour(m.name)) }} />
            {m.name} <strong>{formatPercent(m.share)}</strong>
          </li>
        ))}
      </ul>
    </figure>
  );
}
