import { Area, AreaChart, Brush, ResponsiveContainer } from "recharts";
import { colorVar } from "../../charts/tokens";
import { formatTimeTick } from "../../lib/format";

export interface IndexRange {
  start: number;
  end: number;
}

interface RangeNavigatorProps {
  rows: readonly { t: number; total: number }[];
  range: IndexRange | null;
  onChange: (range: IndexRange | null) => void;
}

/** An overview of the whole series with a brush: drag its handles to zoom the chart above. */
export function RangeNavigator({ rows, range, onChange }: RangeNavigatorProps) {
  const last = Math.max(rows.length - 1, 0);
  const spanMs = rows.length > 1 ? (rows[last]?.t ?? 0) - (rows[0]?.t ?? 0) : 0;
  return (
    <div style={{ width: "100%", height: 72 }} data-testid="range-navigator" role="group" aria-label="Zoom: drag the handles to choose a time range">
      <ResponsiveContainer width="100%" height="100%">
        <AreaChart data={rows} margin={{ top: 4, right: 16, bottom: 0, left: 68 }}>
          <Area dataKey="total" type="stepAfter" stroke={colorVar("chart-axis")} fill={colorVar("chart-grid")} isAnimationActive={false} />
          <Brush
            dataKey="t"
            height={28}
            startIndex={range?.start ?? 0}
            endIndex={range?.end ?? last}
            travellerWidth={10}
            stroke={colorVar("chart-requests")}
            tickFormatter={(v: number) => formatTimeTick(v, spanMs)}
            onChange={(r: { startIndex?: number; endIndex?: number }) => {
              const start = r.startIndex ?? 0;
              const end = r.endIndex ?? last;
              onChange(start === 0 && end === last ? null : { start, end });
            }}
          />
        </AreaChart>
      </ResponsiveContainer>
    </div>
  );
}
