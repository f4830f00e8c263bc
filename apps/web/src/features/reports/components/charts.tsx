import {
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  Tooltip,
  type TooltipValueType,
  XAxis,
  YAxis,
} from "recharts";
import { NoData } from "./report-card.tsx";

/** One drawn series: the row's field it reads, its name in the legend and tooltip, and its colour (by default the
 * palette's, in the series' order). */
export interface Series {
  key: string;
  label: string;
  color?: string;
}

/** Colours that stay apart for most colour vision, in the order series take them. */
export const PALETTE = ["#4f46e5", "#0891b2", "#d97706", "#059669", "#db2777", "#64748b"] as const;

export const colorAt = (i: number): string => PALETTE[i % PALETTE.length] ?? "#4f46e5";

/** Each series with its colour: its own, or the palette's in the series' order. */
const painted = (series: readonly Series[]) => series.map((s, i) => ({ ...s, color: s.color ?? colorAt(i) }));

type Row = Record<string, string | number | null>;

interface ChartProps {
  /** What the chart shows, for screen readers (the table view holds the figures). */
  label: string;
  rows: readonly Row[];
  /** The row's field with the category or period's name. */
  xKey: string;
  series: readonly Series[];
  /** How a value reads in the tooltip and on the axis ("3.5 h", "92%"). */
  format?: (value: number) => string;
  stacked?: boolean;
  height?: number;
  /** Set when the range holds nothing this chart draws: the chart says it (as the table view does) instead of drawing
   * empty axes. */
  noData?: string | false;
}

const axisTick = { fontSize: 12, fill: "#475569" };

/**
 * The legend keeps the series' order, and its words are slate (a series' own colour is too light for small text,
 * WCAG 1.4.3); the swatch beside each carries the colour.
 */
const legend = (
  <Legend
    itemSorter={null}
    wrapperStyle={{ fontSize: 12 }}
    formatter={(value) => <span style={{ color: "#334155" }}>{value}</span>}
  />
);

/** Tooltip lines in slate too, for the same reason. */
const tooltipText = { color: "#334155" };

function tooltipValue(format: (value: number) => string) {
  return (value: TooltipValueType | undefined) => (typeof value === "number" ? format(value) : "—");
}

/**
 * What a chart over periods is, bars or lines: it fills its frame (recharts' own keyboard layer off, see `Figure`), with
 * room at the left for the value axis' ticks.
 */
const periodChart = {
  responsive: true,
  accessibilityLayer: false,
  style: { width: "100%", height: "100%" },
  margin: { top: 8, right: 8, bottom: 0, left: -16 },
};

const plain = (value: number) => value.toLocaleString("en-US");

const SHORT = "__short";

/** A long name on a category axis ends in an ellipsis (the tooltip and the table view have it whole). */
export const shorten = (name: unknown): string => {
  const text = String(name);
  return text.length > 16 ? `${text.slice(0, 15)}…` : text;
};

/**
 * The chart's drawing is one image for screen readers, named by `label`; the section's table view is how a keyboard or
 * screen-reader user reads the figures (recharts' own keyboard layer is off so there is one way, not two half ways).
 * It fills its card's width and shrinks with it on a phone.
 */
function Figure({ label, height, children }: { label: string; height: number; children: React.ReactNode }) {
  return (
    <div role="img" aria-label={label} className="w-full min-w-0" style={{ height }}>
      {children}
    </div>
  );
}

export function PeriodBars({
  label,
  rows,
  xKey,
  series,
  format = plain,
  stacked = false,
  height = 260,
  noData,
}: ChartProps) {
  if (noData) return <NoData>{noData}</NoData>;
  return (
    <Figure label={label} height={height}>
      <BarChart {...periodChart} data={rows as Row[]}>
        <CartesianGrid stroke="#e2e8f0" vertical={false} />
        <XAxis dataKey={xKey} tick={axisTick} tickLine={false} axisLine={{ stroke: "#cbd5e1" }} minTickGap={12} />
        <YAxis tick={axisTick} tickLine={false} axisLine={false} allowDecimals={false} tickFormatter={format} />
        <Tooltip formatter={tooltipValue(format)} itemStyle={tooltipText} cursor={{ fill: "#eef2ff" }} />
        {series.length > 1 && legend}
        {painted(series).map((s) => (
          <Bar
            key={s.key}
            dataKey={s.key}
            name={s.label}
            fill={s.color}
            stackId={stacked ? "stack" : undefined}
            isAnimationActive={false}
            maxBarSize={40}
          />
        ))}
      </BarChart>
    </Figure>
  );
}

export function PeriodLines({ label, rows, xKey, series, format = plain, height = 260, noData }: ChartProps) {
  if (noData) return <NoData>{noData}</NoData>;
  return (
    <Figure label={label} height={height}>
      <LineChart {...periodChart} data={rows as Row[]}>
        <CartesianGrid stroke="#e2e8f0" vertical={false} />
        <XAxis dataKey={xKey} tick={axisTick} tickLine={false} axisLine={{ stroke: "#cbd5e1" }} minTickGap={12} />
        <YAxis tick={axisTick} tickLine={false} axisLine={false} tickFormatter={format} />
        <Tooltip formatter={tooltipValue(format)} itemStyle={tooltipText} />
        {series.length > 1 && legend}
        {painted(series).map((s) => (
          <Line
            key={s.key}
            dataKey={s.key}
            name={s.label}
            stroke={s.color}
            strokeWidth={2}
            dot={{ r: rows.length > 31 ? 1 : 2 }}
            connectNulls={false}
            isAnimationActive={false}
          />
        ))}
      </LineChart>
    </Figure>
  );
}

/** Categories side by side (tags, agents), each a horizontal bar: long names stay readable on a phone. */
export function CategoryBars({ label, rows, xKey, series, format = plain, noData }: ChartProps) {
  if (noData) return <NoData>{noData}</NoData>;
  const height = Math.max(120, rows.length * 32 + 40);
  const drawn = rows.map((row) => ({ ...row, [SHORT]: shorten(row[xKey]) }));
  return (
    <Figure label={label} height={height}>
      <BarChart
        responsive
        layout="vertical"
        accessibilityLayer={false}
        data={drawn}
        style={{ width: "100%", height: "100%" }}
        margin={{ top: 0, right: 16, bottom: 0, left: 0 }}
      >
        <CartesianGrid stroke="#e2e8f0" horizontal={false} />
        <XAxis
          type="number"
          tick={axisTick}
          tickLine={false}
          axisLine={false}
          allowDecimals={false}
          tickFormatter={format}
        />
        <YAxis
          type="category"
          dataKey={SHORT}
          tick={axisTick}
          tickLine={false}
          width={120}
          axisLine={{ stroke: "#cbd5e1" }}
        />
        <Tooltip
          formatter={tooltipValue(format)}
          itemStyle={tooltipText}
          cursor={{ fill: "#eef2ff" }}
          labelFormatter={(short, payload) => String(payload[0]?.payload?.[xKey] ?? short)}
        />
        {series.length > 1 && legend}
        {painted(series).map((s) => (
          <Bar key={s.key} dataKey={s.key} name={s.label} fill={s.color} isAnimationActive={false} maxBarSize={22} />
        ))}
      </BarChart>
    </Figure>
  );
}
