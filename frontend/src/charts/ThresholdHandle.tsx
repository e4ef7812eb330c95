import { useRef, type KeyboardEvent, type PointerEvent } from "react";
import { usePlotArea, useYAxisInverseScale, useYAxisScale } from "recharts";
import styles from "./Chart.module.css";
import { colorVar, type ColorToken } from "./tokens";

export interface ThresholdConfig {
  value: number;
  min: number;
  max: number;
  /** Maps a key press to the next value, or null to ignore the key. */
  keyStep: (key: string, value: number) => number | null;
  onChange: (value: number) => void;
  label: string;
  /** The value with its unit, for the handle's label and aria-valuetext. */
  format: (value: number) => string;
  color: ColorToken;
  testId: string;
}

function clamp(v: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, v));
}

/**
 * A horizontal line across the plot that can be dragged with a pointer or moved with the
 * arrow keys (role "slider"). Rendered inside a Recharts chart: it reads the y scale.
 */
export function ThresholdHandle({ value, min, max, keyStep, onChange, label, format, color, testId }: ThresholdConfig) {
  const scale = useYAxisScale();
  const inverse = useYAxisInverseScale();
  const plot = usePlotArea();
  const dragging = useRef(false);
  const y = scale?.(value);
  if (plot === undefined || inverse === undefined || y === undefined || !Number.isFinite(y)) return null;

  const fromPointer = (e: PointerEvent<SVGGElement>) => {
    const svg = e.currentTarget.ownerSVGElement;
    if (svg === null) return;
    const top = svg.getBoundingClientRect().top;
    const v = Number(inverse(e.clientY - top));
    if (Number.isFinite(v)) onChange(clamp(v, min, max));
  };
  const onKeyDown = (e: KeyboardEvent<SVGGElement>) => {
    const next = keyStep(e.key, value);
    if (next === null) return;
    e.preventDefault();
    onChange(next);
  };
  const text = format(value);
  const stroke = colorVar(color);
  const right = plot.x + plot.width;
  const gripX = plot.x + 6;
  return (
    <g
      className={styles.handle}
      role="slider"
      tabIndex={0}
      aria-label={label}
      aria-valuemin={min}
      aria-valuemax={max}
      aria-valuenow={value}
      aria-valuetext={text}
      aria-orientation="vertical"
      data-testid={testId}
      onKeyDown={onKeyDown}
      onPointerDown={(e) => {
        e.currentTarget.setPointerCapture(e.pointerId);
        dragging.current = true;
        fromPointer(e);
      }}
      onPointerMove={(e) => dragging.current && fromPointer(e)}
      onPointerUp={() => (dragging.current = false)}
      onPointerCancel={() => (dragging.current = false)}
    >
      <rect className={styles.handleHit} x={plot.x} y={y - 8} width={plot.width} height={16} />
      <line x1={plot.x} x2={right} y1={y} y2={y} stroke={stroke} strokeWidth={2} />
      <rect className={styles.handleGrip} x={gripX} y={y - 11} width={108} height={22} rx={11} stroke={stroke} />
      <text className={styles.handleText} x={gripX + 54} y={y + 4} textAnchor="middle" fill={stroke}>
        ⇕ {text}
      </text>
    </g>
  );
}
