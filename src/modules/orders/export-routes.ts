// The orders CSV lives apart from routes.ts: a file download, not a JSON answer.
import { Readable } from 'node:stream'
import { z } from 'zod'
import { accountActorOf } from '../../kit/http/guard.ts'
import type { RouteModule } from '../../routes.ts'
import { findProductById } from '../catalog/service.ts'
import { todayInSaoPaulo } from '../stats/service.ts'
import { ordersCsv } from './export.ts'
import { OrderListQuery } from './schema.ts'

const ExportQuery = OrderListQuery.omit({ page: true, limit: true, starting_after: true })

export const orderExportRoutes: RouteModule = (app, deps) => {
  app.get(
    '/api/v1/orders/export.csv',
    {
      config: { guard: { account: 'read:orders' } },
      schema: {
        tags: ['orders'],
        operationId: 'exportOrdersCsv',
        summary: 'Export orders as CSV',
        description:
          'Every order matching the filters of `GET /api/v1/orders`, newest first, as CSV for spreadsheets in Brazil: UTF-8 with a byte-order mark, `;` between columns, amounts as `1234,56`, dates in São Paulo time, a header row in Portuguese. Streamed: any number of orders.',
        querystring: ExportQuery,
        produces: ['text/csv'],
        response: { 200: z.string().describe('the CSV file') },
      },
    },
    async (request, reply) => {
      const actor = accountActorOf(request)
      const names = new Map<string, Promise<string>>()
      const productName = (id: string) => {
        let name = names.get(id)
        if (!name) {
          name = findProductById(deps.db, id).then((p) => p?.name ?? '')
          names.set(id, name)
        }
        return name
      }
      const day = todayInSaoPaulo(deps.clock.now())
      return (
        reply
          .type('text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="pedidos-${day}.csv"`)
          // A stream skips the response serializer; the schema's string only documents the file.
          .send(
            Readable.from(
              ordersCsv(deps.db, actor.accountId, request.query, productName),
            ) as unknown as string,
          )
      )
    },
  )
}
