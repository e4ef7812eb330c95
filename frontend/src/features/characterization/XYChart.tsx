import { useId, useMemo } from "react";
import { Area, CartesianGrid, ComposedChart, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import tsStyles from "../../charts/TimeSeriesChart.module.css";
import { colorVar } from "../../charts/tokens";
import { drawableRows, type XYChartConfig, type XYRow } from "./xyConfig";

interface TooltipProps {
  active?: boolean;
  payload?: readonly { payload?: unknown }[];
}

function XYTooltip({ config, active, payload }: TooltipProps & { config: XYChartConfig }) {
  const row = payload?.[0]?.payload as XYRow | undefined;
  if (active !== true || row === undefined) return null;
  return (
    <div className={tsStyles.tooltip}>
      <div className={tsStyles.tooltipTime}>
        {config.xLabel}: {config.xUnit(row.x)}
      </div>
      {config.series
        .filter((s) => typeof row[s.key] === "number")
        .map((s) => (
          <div key={s.key} className={tsStyles.tooltipRow}>
            <span className={tsStyles.swatch} style={{ background: colorVar(s.color) }} />
            <span className={tsStyles.tooltipLabel}>{s.label}</span>
            <span className={tsStyles.tooltipValue}>{config.yUnit(row[s.key] ?? 0)}</span>
          </div>
        ))}
    </div>
  );
}

/** The one wrapper for values against a numeric x: filled step histograms and curves, linear or log x. */
export function XYChart({ config, rows, height = 240 }: { config: XYChartConfig; rows: readonly XYRow[]; height?: number }) {
  const titleId = useId();
  const descId = useId();
  const logX = config.logX === true;
  const data = useMemo(() => drawableRows(rows, logX), [rows, logX]);
  const axisTick = { fill: colorVar("chart-axis"), fontSize: 12 };
  return (
    <figure className={tsStyles.figure} aria-labelledby={titleId} aria-describedby={descId} data-testid={config.id}>
      <figcaption className={tsStyles.head}>
        <div>
          <div id={titleId} className={tsStyles.title}>
            {config.title}
          </div>
          <div id={descId} className={tsStyles.desc}>
            {config.description}
          </div>
        </div>
        <ul className={tsStyles.legend} aria-label="Series">
          {config.series.map((s) => (
            <li key={s.key} className={tsStyles.legendItem}>
              <span className={tsStyles.swatch} style={{ background: colorVar(s.color) }} />
              {s.label}
            </li>
          ))}
        </ul>
      </figcaption>
      <div style={{ width: "100%", height }}>
        <ResponsiveContainer width="100%" height="100%">
          <ComposedChart data={data} title={config.title} margin={{ top: 8, right: 16, bottom: 16, left: 4 }}>
            <CartesianGrid stroke={colorVar("chart-grid")} vertical={false} />
            <XAxis
              dataKey="x"
              type="number"
              scale={logX ? "log" : "linear"}
              domain={["dataMin", "dataMax"]}
              ticks={config.xTicks}
              allowDataOverflow
              tickFormatter={(v: number) => (config.xAxisUnit ?? config.xUnit)(v)}
              tick={axisTick}
              stroke={colorVar("chart-axis")}
              tickMargin={6}
              label={{ value: config.xLabel, position: "insideBottom", offset: -10, style: axisTick }}
            />
            <YAxis
              tickFormatter={(v: number) => (config.yAxisUnit ?? config.yUnit)(v)}
              tick={axisTick}
              stroke={colorVar("chart-axis")}
              width={64}
              label={{ value: config.yLabel, angle: -90, position: "insideLeft", offset: 4, style: { ...axisTick, textAnchor: "middle" } }}
            />
            <Tooltip content={(props: TooltipProps) => <XYTooltip config={config} {...props} />} />
            {config.series.map((s) =>
              s.kind === "step" ? (
                <Area
                  key={s.key}
                  dataKey={s.key}
                  name={s.label}
                  type="stepAfter"
                  stroke={colorVar(s.color)}
                  fill={colorVar(s.color)}
                  fillOpacity={0.35}
                  isAnimationActive={false}
                  connectNulls
                />
              ) : (
                <Line
                  key={s.key}
                  dataKey={s.key}
                  name={s.label}
                  type="monotone"
                  stroke={colorVar(s.color)}
                  strokeWidth={2}
                  dot={false}
                  isAnimationActive={false}
                  connectNulls
                />
              ),
            )}
          </ComposedChart>
        </ResponsiveContainer>
      </div>
    </figure>
  );
}
