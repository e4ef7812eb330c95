import { useMemo, useState, type KeyboardEvent, type ReactNode } from "react";
import { Area, AreaChart, Bar, BarChart, CartesianGrid, Line, LineChart, ReferenceArea } from "recharts";
import type { MouseHandlerDataParam } from "recharts/types/synchronisation/types";
import { formatTimeLabel, formatTimeTick } from "../lib/format";
import { dedupTicks } from "./simConfig";
import { ChartFigure } from "./ChartFigure";
import { buildChartModel, keyZoom, tooltipRows, type ChartPoint, type TimeChartConfig } from "./config";
import { tooltip, xAxis, yAxis } from "./elements";
import { colorVar } from "./tokens";

/** What a drag and a click on the chart do: a drag across buckets zooms to them, a click on
 * one picks it (both as [from, to) in epoch ms, the last bucket included whole). */
export interface ChartSelect {
  bucketMs: number;
  onZoom: (fromMs: number, toMs: number) => void;
  onPick: (fromMs: number, toMs: number) => void;
  /** Escape on the focused chart: back to the whole range (no reset key without it). */
  onReset?: () => void;
}

interface TimeSeriesChartProps<Row> {
  config: TimeChartConfig<Row>;
  rows: Row[];
  height?: number;
  select?: ChartSelect;
}

function renderSeries<Row>(config: TimeChartConfig<Row>) {
  const stackId = config.kind.startsWith("stacked") ? "stack" : undefined;
  return config.series.map((s) => {
    const color = colorVar(s.color);
    const common = { dataKey: s.key, name: s.label, isAnimationActive: false, stackId };
    if (config.kind === "line") {
      if (s.faint === true) {
        return <Line key={s.key} {...common} type="stepAfter" stroke={color} strokeWidth={1} strokeOpacity={0.55} strokeDasharray="4 3" dot={false} connectNulls={false} />;
      }
      return <Line key={s.key} {...common} type="monotone" stroke={color} strokeWidth={1.8} dot={config.dots === true ? { r: 2, fill: color } : false} />;
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
type Handler = (state: MouseHandlerDataParam) => void;

interface FrameHandlers {
  onMouseDown?: Handler;
  onMouseMove?: Handler;
  onMouseUp?: Handler;
  onMouseLeave?: () => void;
}

function ChartFrame({ kind, data, title, children, handlers, keyboard }: FrameProps & { handlers: FrameHandlers; keyboard: boolean }) {
  // with our own keys on the plot, Recharts' keyboard layer (a second tab stop whose arrows move the tooltip) is off
  const props = { data, title, margin: { top: 8, right: 16, bottom: 4, left: 4 }, accessibilityLayer: !keyboard, ...handlers };
  if (kind === "line") return <LineChart {...props}>{children}</LineChart>;
  if (kind === "stacked-bar") return <BarChart {...props}>{children}</BarChart>;
  return <AreaChart {...props}>{children}</AreaChart>;
}

/** The time of the bucket under the pointer; null off the data. */
function pointerTime(points: readonly ChartPoint[], state: MouseHandlerDataParam): number | null {
  const index = Number(state.activeTooltipIndex);
  return Number.isInteger(index) ? (points[index]?.t ?? null) : null;
}

/** Drag to zoom, click to pick: the span under the drag, shaded while it is dragged. */
function useDragSelect(points: readonly ChartPoint[], select: ChartSelect | undefined) {
  const [drag, setDrag] = useState<{ a: number; b: number } | null>(null);
  // after a drag or a click the tooltip stays hidden until the pointer moves on
  const [quietAt, setQuietAt] = useState<number | null>(null);
  if (select === undefined) return { drag: null, quiet: false, handlers: {} };
  const end = (state: MouseHandlerDataParam) => {
    const t = pointerTime(points, state) ?? drag?.b ?? null;
    if (drag !== null && t !== null) {
      const lo = Math.min(drag.a, t);
      const hi = Math.max(drag.a, t) + select.bucketMs;
      if (lo === Math.max(drag.a, t)) select.onPick(lo, hi);
      else select.onZoom(lo, hi);
      setQuietAt(t);
    }
    setDrag(null);
  };
  const handlers: FrameHandlers = {
    onMouseDown: (state) => {
      const t = pointerTime(points, state);
      if (t !== null) setDrag({ a: t, b: t });
    },
    onMouseMove: (state) => {
      const t = pointerTime(points, state);
      if (quietAt !== null && drag === null && t !== quietAt) setQuietAt(null);
      if (drag !== null && t !== null && t !== drag.b) setDrag({ ...drag, b: t });
    },
    onMouseUp: end,
    onMouseLeave: () => {
      setDrag(null);
      setQuietAt(null);
    },
  };
  return { drag, quiet: quietAt !== null, handlers };
}

/** The keyboard's way to the range: arrows move, +/- zoom, Escape resets (keyZoom), each told to
 * screen readers through a live region. */
function useKeyZoom(points: readonly ChartPoint[], select: ChartSelect | undefined) {
  const [said, setSaid] = useState("");
  if (select === undefined || points.length === 0) return { said, onKeyDown: undefined };
  const first = points[0]?.t ?? 0;
  const last = points[points.length - 1]?.t ?? 0;
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const next = keyZoom(e.key, { fromMs: first, toMs: last + select.bucketMs }, select.bucketMs);
    if (next === null || (next === "reset" && select.onReset === undefined)) return;
    e.preventDefault();
    if (next === "reset") {
      select.onReset?.();
      setSaid("Showing the whole range");
      return;
    }
    select.onZoom(next.fromMs, next.toMs);
    setSaid(`Showing ${formatTimeLabel(next.fromMs)} to ${formatTimeLabel(next.toMs)}`);
  };
  return { said, onKeyDown };
}

/** The chart of values against time (epoch ms): lines, areas or stacked bars; with `select`,
 * a drag zooms and a click picks a bucket, and the focused chart takes arrows, +/- and Escape. */
export function TimeSeriesChart<Row>({ config, rows, height = 280, select }: TimeSeriesChartProps<Row>) {
  const model = useMemo(() => buildChartModel(config, rows), [config, rows]);
  const { drag, quiet, handlers } = useDragSelect(model.points, select);
  const keys = useKeyZoom(model.points, select);
  const tickFormat = (v: number) => formatTimeTick(v, model.spanMs);
  const ticks = dedupTicks(model.ticks, tickFormat);
  const keyHelp = select?.onReset === undefined ? "Arrow keys move the range, + and - zoom." : "Arrow keys move the range, + and - zoom, Escape shows the whole range.";
  return (
    <ChartFigure
      id={config.id}
      title={config.title}
      description={select === undefined ? config.description : `${config.description} ${keyHelp}`}
      legend={config.series}
      height={height}
      interactive={select !== undefined}
      onKeyDown={keys.onKeyDown}
      announcement={select === undefined ? undefined : keys.said}
    >
      <ChartFrame kind={config.kind} data={model.points} title={config.title} handlers={handlers} keyboard={keys.onKeyDown !== undefined}>
        <CartesianGrid stroke={colorVar("chart-grid")} vertical={false} />
        {xAxis({
          dataKey: "t",
          scale: "time",
          domain: ["dataMin", "dataMax"],
          ticks,
          format: tickFormat,
          interval: 0,
        })}
        {yAxis({ format: config.axisUnit ?? config.unit, label: config.yLabel, labelOffset: 4, width: 64 })}
        {tooltip((point: ChartPoint) => ({ heading: formatTimeLabel(point.t), rows: tooltipRows(config, point) }), drag === null && !quiet ? undefined : false)}
        {renderSeries(config)}
        {drag !== null && drag.a !== drag.b && (
          <ReferenceArea x1={drag.a} x2={drag.b} fill={colorVar("chart-requests")} fillOpacity={0.15} stroke={colorVar("chart-requests")} ifOverflow="hidden" />
        )}
      </ChartFrame>
    </ChartFigure>
  );
}
