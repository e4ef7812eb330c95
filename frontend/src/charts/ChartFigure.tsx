/** The frame every chart wrapper draws in: a captioned figure with its legend, and the tooltip box. */
import { useId, type KeyboardEventHandler, type ReactElement } from "react";
import { ResponsiveContainer } from "recharts";
import type { TooltipRow } from "./config";
import styles from "./Chart.module.css";
import { colorVar, type ColorToken } from "./tokens";

export interface LegendEntry {
  key: string;
  label: string;
  color: ColorToken;
  /** "box" (default) for areas and lines, "dash" for a dashed line, "dot" for points. */
  swatch?: "box" | "dash" | "dot";
  /** A pale swatch for a shaded span behind the series. */
  faded?: boolean;
}

const SWATCH_CLASS = { box: styles.swatch, dash: styles.dashSwatch, dot: styles.dotSwatch };

function Legend({ entries }: { entries: readonly LegendEntry[] }) {
  return (
    <ul className={styles.legend} aria-label="Series">
      {entries.map((e) => {
        const color = colorVar(e.color);
        const dash = e.swatch === "dash";
        const style = { borderColor: dash ? color : undefined, background: dash ? undefined : color, opacity: e.faded === true ? 0.35 : undefined };
        return (
          <li key={e.key} className={styles.legendItem}>
            <span className={SWATCH_CLASS[e.swatch ?? "box"]} style={style} />
            {e.label}
          </li>
        );
      })}
    </ul>
  );
}

interface ChartFigureProps {
  /** The figure's data-testid. */
  id: string;
  title: string;
  description: string;
  legend: readonly LegendEntry[];
  height: number;
  /** The chart has its own width and height (tests: jsdom has no layout) instead of filling the figure. */
  fixedSize?: boolean;
  /** No focus ring when a pointer click focuses the chart (keyboard focus keeps it). */
  quietFocus?: boolean;
  /** The plot takes drags and clicks (a crosshair cursor, no text selection). */
  interactive?: boolean;
  /** Keys on the focused plot (given: the plot is a tab stop with a visible focus ring). */
  onKeyDown?: KeyboardEventHandler<HTMLDivElement>;
  /** Told to screen readers when it changes (e.g. the range a key moved to). */
  announcement?: string;
  /** The Recharts chart element. */
  children: ReactElement;
}

/** A figure named by its title, described by its description, with the legend beside the title. */
export function ChartFigure({ id, title, description, legend, height, fixedSize = false, quietFocus = false, interactive = false, onKeyDown, announcement, children }: ChartFigureProps) {
  const titleId = useId();
  const descId = useId();
  return (
    <figure className={styles.figure} aria-labelledby={titleId} aria-describedby={descId} data-testid={id}>
      <figcaption className={styles.head}>
        <div>
          <div id={titleId} className={styles.title}>
            {title}
          </div>
          <div id={descId} className={styles.desc}>
            {description}
          </div>
        </div>
        <Legend entries={legend} />
      </figcaption>
      <div
        className={[styles.plot, quietFocus || interactive ? styles.quietFocus : "", interactive ? styles.interactive : ""].join(" ").trim()}
        style={{ height }}
        data-interactive={interactive || undefined}
        {...(onKeyDown === undefined ? {} : { tabIndex: 0, role: "group", "aria-labelledby": titleId, "aria-describedby": descId, onKeyDown, "data-testid": `${id}-plot` })}
      >
        {fixedSize ? (
          children
        ) : (
          <ResponsiveContainer width="100%" height="100%">
            {children}
          </ResponsiveContainer>
        )}
      </div>
      {announcement !== undefined && (
        <div className="visually-hidden" aria-live="polite" data-testid={`${id}-announce`}>
          {announcement}
        </div>
      )}
    </figure>
  );
}

export interface TooltipBody {
  /** The hovered x with its unit. */
  heading: string;
  rows: readonly TooltipRow[];
  /** A plain line shown instead of the rows when there are none. */
  note?: string;
}

/** The hovered point: its x, then one row per series with a swatch, the label and the value with its unit. */
export function ChartTooltip({ heading, rows, note }: TooltipBody) {
  return (
    <div className={styles.tooltip}>
      <div className={styles.tooltipTime}>{heading}</div>
      {rows.length === 0 && note !== undefined && <div className={styles.tooltipRow}>{note}</div>}
      {rows.map((r) => (
        <div key={r.key} className={styles.tooltipRow}>
          <span className={styles.swatch} style={{ background: colorVar(r.color) }} />
          <span className={styles.tooltipLabel}>{r.label}</span>
          <span className={styles.tooltipValue}>{r.text}</span>
        </div>
      ))}
    </div>
  );
}
