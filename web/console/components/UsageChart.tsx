import type { Schemas } from '../../shared/api';
import { useI18n } from '../i18n';
import { DataTable } from './DataTable';

type Point = Schemas['UsageDataPoint'];

const W = 720;
const H = 180;
const PAD = { top: 12, right: 8, bottom: 24, left: 40 };

/**
 * API requests per UTC day as an inline SVG bar chart (no chart library), with the figures in a table for screen
 * readers and for anyone who wants the numbers: the SVG itself is one labelled image.
 */
export function UsageChart({ points }: { points: Point[] }) {
  const { t } = useI18n();
  const max = Math.max(1, ...points.map((p) => p.requests));
  const innerW = W - PAD.left - PAD.right;
  const innerH = H - PAD.top - PAD.bottom;
  const step = innerW / Math.max(points.length, 1);
  const total = points.reduce((sum, p) => sum + p.requests, 0);
  return (
    <figure className="chart">
      <svg
        viewBox={`0 0 ${W} ${H}`}
        role="img"
        aria-label={t('dash.chart_label', { days: points.length, total })}
      >
        <line x1={PAD.left} x2={W - PAD.right} y1={PAD.top + innerH} y2={PAD.top + innerH} className="axis" />
        <text x={PAD.left - 6} y={PAD.top + 4} textAnchor="end" className="tick">
          {max}
        </text>
        <text x={PAD.left - 6} y={PAD.top + innerH} textAnchor="end" className="tick">
          0
        </text>
        {points.map((p, i) => {
          const h = (p.requests / max) * innerH;
          return (
            <rect
              key={p.date}
              x={PAD.left + i * step + step * 0.15}
              y={PAD.top + innerH - h}
              width={Math.max(step * 0.7, 1)}
              height={h}
              className="bar"
            >
              <title>{`${p.date}: ${p.requests}`}</title>
            </rect>
          );
        })}
        {points.length > 0 && (
          <>
            <text x={PAD.left} y={H - 6} className="tick">
              {points[0].date}
            </text>
            <text x={W - PAD.right} y={H - 6} textAnchor="end" className="tick">
              {points[points.length - 1].date}
            </text>
          </>
        )}
      </svg>
      <figcaption>
        <details>
          <summary>{t('dash.chart_table')}</summary>
          <DataTable columns={[t('dash.date'), t('dash.requests'), t('dash.tasks_created'), t('dash.spend')]}>
            {points.map((p) => (
              <tr key={p.date}>
                <td>{p.date}</td>
                <td>{p.requests}</td>
                <td>{p.tasks_created}</td>
                <td>{(p.spend_cents / 100).toFixed(2)}</td>
              </tr>
            ))}
          </DataTable>
        </details>
      </figcaption>
    </figure>
  );
}
