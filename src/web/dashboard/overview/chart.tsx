// Revenue per day as a server-rendered SVG bar chart (no chart library, no script), with its
// figures as text for screen readers: the SVG is one image named by a title and a summary, and
// a visually hidden list carries every day's numbers.
import type { VNode } from 'preact'
import type { StatsOut } from '../../../modules/stats/schema.ts'
import { brl } from '../ui.tsx'

const WIDTH = 300
const HEIGHT = 120
const TOP = 14

/** "24/11" from "2026-11-24". */
const dayMonth = (date: string) => `${date.slice(8, 10)}/${date.slice(5, 7)}`
const fullDate = (date: string) => `${date.slice(8, 10)}/${date.slice(5, 7)}/${date.slice(0, 4)}`

export function RevenueChart({ stats }: { stats: StatsOut }): VNode {
  const max = Math.max(...stats.days.map((d) => d.revenue), 0)
  const slot = WIDTH / stats.days.length
  const best = stats.days.reduce((a, b) => (b.revenue > a.revenue ? b : a), stats.days[0]!)
  const summary = max
    ? `${brl(stats.revenue)} em ${stats.days.length} dias; maior dia ${fullDate(best.date)}, ${brl(best.revenue)}.`
    : `Nenhuma receita nos últimos ${stats.days.length} dias.`
  return (
    <figure class="chart">
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT + 16}`}
        role="img"
        aria-labelledby="grafico-titulo grafico-resumo"
        width="100%"
      >
        <title id="grafico-titulo">Receita por dia</title>
        <desc id="grafico-resumo">{summary}</desc>
        <line x1="0" y1={HEIGHT} x2={WIDTH} y2={HEIGHT} stroke="#888" stroke-width="1" />
        {stats.days.map((d, i) => {
          const h = max ? Math.max((d.revenue / max) * (HEIGHT - TOP), d.revenue ? 2 : 0) : 0
          return (
            <rect
              key={d.date}
              x={(i * slot + slot * 0.15).toFixed(2)}
              y={(HEIGHT - h).toFixed(2)}
              width={(slot * 0.7).toFixed(2)}
              height={h.toFixed(2)}
              fill="#5b2bd6"
              data-date={d.date}
            />
          )
        })}
        {max ? (
          <text x="0" y="10" font-size="10" fill="#444">
            {brl(max)}
          </text>
        ) : null}
        <text x="0" y={HEIGHT + 13} font-size="10" fill="#444">
          {dayMonth(stats.from)}
        </text>
        <text x={WIDTH} y={HEIGHT + 13} font-size="10" fill="#444" text-anchor="end">
          {dayMonth(stats.to)}
        </text>
      </svg>
      <figcaption class="sr-only">
        <ul aria-label="Receita por dia, em números">
          {stats.days.map((d) => (
            <li key={d.date}>
              {`${fullDate(d.date)}: ${brl(d.revenue)}, ${d.paid_orders} pedido(s) pago(s), ${d.sessions} sessão(ões) de checkout`}
            </li>
          ))}
        </ul>
      </figcaption>
    </figure>
  )
}
