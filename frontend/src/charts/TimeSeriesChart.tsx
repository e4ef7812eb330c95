import { useId, useMemo, type ReactNode } from "react";
import {
  Area,
  AreaChart,
  Bar,
  BarChart,
  CartesianGrid,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import { formatTimeLabel, formatTimeTick } from "../lib/format";
import { buildChartModel, tooltipRows, type ChartPoint, type TimeChartConfig } from "./config";
import styles from "./TimeSeriesChart.module.css";
import { colorVar } from "./tokens";

interface TimeSeriesChartProps<Row> {
  config: TimeChartConfig<Row>;
  rows: Row[];
  height?: number;
}

interface TooltipProps {
  active?: boolean;
  payload?: readonly { payload?: unknown }[];
}

function ChartTooltip<Row>({ config, active, payload }: TooltipProps & { config: TimeChartConfig<Row> }) {
  const point = payload?.[0]?.payload as ChartPoint | undefined;
  if (active !== true || point === undefined) return null;
  return (
    <div className={styles.tooltip}>
      <div className={styles.tooltipTime}>{formatTimeLabel(point.t)}</div>
      {tooltipRows(config, point).map((r) => (
        <div key={r.key} className={styles.tooltipRow}>
          <span className={styles.swatch} style={{ background: colorVar(r.color) }} />
          <span className={styles.tooltipLabel}>{r.label}</span>
          <span className={styles.tooltipValue}>{r.text}</span>
        </div>
      ))}
    </div>
  );
}

function renderSeries<Row>(config: TimeChartConfig<Row>) {
  const stackId = config.kind.startsWith("stacked") ? "stack" : undefined;
  return config.series.map((s) => {
    const color = colorVar(s.color);
    const common = { dataKey: s.key, name: s.label, isAnimationActive: false, stackId };
    if (config.kind === "line") {
      return <Line key={s.key} {...common} type="monotone" stroke={color} strokeWidth={1.8} dot={false} />;
    }
    if (config.kind === "stacked-bar") {
      return <Bar key={s.key} {...common} fill={color} />;
    }
    // Buckets hold a count from t to the next t: a step curve draws exactly that.
    const stacked = stackId !== undefined;
    return (
      <Area
        key={s.key}
        {...common}
        type="stepAfter"
        stroke={color}
        strokeWidth={1}
        fill={color}
        fillOpacity={stacked ? 0.85 : 0.25}
      />
    );
  });
}

interface FrameProps {
  kind: TimeChartConfig<unknown>["kind"];
  data: ChartPoint[];
  title: string;
  children: ReactNode;
}

/** The Recharts container for the chart kind; axes, grid and series are its children. */
function ChartFrame({ kind, data, title, children }: FrameProps) {
  const props = { data, title, margin: { top: 8, right: 16, bottom: 4, left: 4 } };
  if (kind === "line") return <LineChart {...props}>{children}</LineChart>;
  if (kind === "stacked-bar") return <BarChart {...props}>{children}</BarChart>;
  return <AreaChart {...props}>{children}</AreaChart>;
}

/** The one wrapper through which every time-series chart is drawn. */
export function TimeSeriesChart<Row>({ config, rows, height = 280 }: TimeSeriesChartProps<Row>) {
  const titleId = useId();
  const descId = useId();
  const model = useMemo(() => buildChartModel(config, rows), [config, rows]);
  const axisTick = { fill: colorVar("chart-axis"), fontSize: 12 };
  const yFormat = config.axisUnit ?? config.unit;

  return (
    <figure className={styles.figure} aria-labelledby={titleId} aria-describedby={descId} data-testid={config.id}>
      <figcaption className={styles.head}>
        <div>
          <div id={titleId} className={styles.title}>
            {config.title}
          </div>
          <div id={descId} className={styles.desc}>
            {config.description}
          </div>
        </div>
        <ul className={styles.legend} aria-label="Series">
          {config.series.map((s) => (
            <li key={s.key} className={styles.legendItem}>
              <span className={styles.swatch} style={{ background: colorVar(s.color) }} />
              {s.label}
            </li>
          ))}
        </ul>
      </figcaption>
      <div className={styles.plot} style={{ height }}>
        <ResponsiveContainer width="100%" height="100%">
          <ChartFrame kind={config.kind} data={model.points} title={config.title}>
            <CartesianGrid stroke={colorVar("chart-grid")} vertical={false} />
            <XAxis
              dataKey="t"
              type="number"
              scale="time"
              domain={["dataMin", "dataMax"]}
              ticks={model.ticks}
              tickFormatter={(v: number) => formatTimeTick(v, model.spanMs)}
              tick={axisTick}
              stroke={colorVar("chart-axis")}
              interval={0}
              tickMargin={6}
            />
            <YAxis
              tickFormatter={(v: number) => yFormat(v)}
              tick={axisTick}
              stroke={colorVar("chart-axis")}
              width={64}
              label={{
                value: config.yLabel,
                angle: -90,
                position: "insideLeft",
                offset: 4,
                style: { ...axisTick, textAnchor: "middle" },
              }}
            />
            <Tooltip content={(props: TooltipProps) => <ChartTooltip config={config} {...props} />} />
            {renderSeries(config)}
          </ChartFrame>
        </ResponsiveContainer>
      </div>
    </figure>
  );
}
