import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  Legend,
  LinearScale,
  Tooltip,
} from 'chart.js';
import { INTL_LOCALES } from '@tessera/contract';
import { useEffect, useRef } from 'react';
import { useLocale } from '../../lib/i18n';

// Only the parts the bar charts use: Chart.js leaves every other controller out of the bundle.
Chart.register(BarController, BarElement, CategoryScale, LinearScale, Legend, Tooltip);

/** One series of bars: one colour, or one colour per bar. */
export interface BarSeries {
  label: string;
  data: number[];
  color: string | string[];
}

export interface BarChartData {
  labels: string[];
  series: BarSeries[];
  /** Series on top of each other (a day's total is the bar's height). */
  stacked?: boolean;
  /** Bars along the y axis: for a few named categories. */
  horizontal?: boolean;
  /** No legend: a single series whose bars the axis already names. */
  hideLegend?: boolean;
}

/**
 * A small bar chart on a canvas. The canvas is an image to assistive technology: `label` says
 * what it shows, and the screen puts the figures beside it as a table.
 */
export function BarChart({ data, label }: { data: BarChartData; label: string }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const locale = INTL_LOCALES[useLocale()];

  useEffect(() => {
    if (!canvas.current) return;
    const valueAxis = {
      stacked: data.stacked ?? false,
      beginAtZero: true,
      ticks: { precision: 0 },
    };
    const categoryAxis = { stacked: data.stacked ?? false, grid: { display: false } };
    const chart = new Chart(canvas.current, {
      type: 'bar',
      data: {
        labels: data.labels,
        datasets: data.series.map((s) => ({
          label: s.label,
          data: s.data,
          backgroundColor: s.color,
          maxBarThickness: 28,
        })),
      },
      options: {
        // Drawn at once: nothing moves for people who would rather it did not, or for tests.
        animation: false,
        responsive: true,
        maintainAspectRatio: false,
        locale,
        indexAxis: data.horizontal ? 'y' : 'x',
        scales: data.horizontal
          ? { x: valueAxis, y: categoryAxis }
          : { x: categoryAxis, y: valueAxis },
        plugins: {
          legend: { display: !data.hideLegend, position: 'bottom', labels: { boxWidth: 12 } },
        },
      },
    });
    return () => chart.destroy();
  }, [data, locale]);

  return (
    <div className="usage-canvas">
      <canvas ref={canvas} role="img" aria-label={label} />
    </div>
  );
}
