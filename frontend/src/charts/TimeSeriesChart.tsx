import { useMemo, type ReactNode } from "react";
import { Area, AreaChart, Bar, BarChart, CartesianGrid, Line, LineChart } from "recharts";
import { formatTimeLabel, formatTimeTick } from "../lib/format";
import { ChartFigure } from "./ChartFigure";
import { buildChartModel, tooltipRows, type ChartPoint, type TimeChartConfig } from "./config";
import { tooltip, xAxis, yAxis } from "./elements";
import { colorVar } from "./tokens";

interface TimeSeriesChartProps<Row> {
  config: TimeChartConfig<Row>;
  rows: Row[];
  height?: number;
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

/** The chart of values against time (epoch ms): lines, areas or stacked bars. */
export function TimeSeriesChart<Row>({ config, rows, height = 280 }: TimeSeriesChartProps<Row>) {
  const model = useMemo(() => buildChartModel(config, rows), [config, rows]);
  return (
    <ChartFigure id={config.id} title={config.title} description={config.description} legend={config.series} height={height}>
      <ChartFrame kind={config.kind} data={model.points} title={config.title}>
        <CartesianGrid stroke={colorVar("chart-grid")} vertical={false} />
        {xAxis({
          dataKey: "t",
          scale: "time",
          domain: ["dataMin", "dataMax"],
          ticks: model.ticks,
          format: (v) => formatTimeTick(v, model.spanMs),
          interval: 0,
        })}
        {yAxis({ format: config.axisUnit ?? config.unit, label: config.yLabel, labelOffset: 4, width: 64 })}
        {tooltip((point: ChartPoint) => ({ heading: formatTimeLabel(point.t), rows: tooltipRows(config, point) }))}
        {renderSeries(config)}
      </ChartFrame>
    </ChartFigure>
  );
}
