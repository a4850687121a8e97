import { z } from 'zod'
import { accountActorOf } from '../../kit/http/guard.ts'
import type { RouteModule } from '../../routes.ts'
import { StatsOut, StatsQuery } from './schema.ts'
import { accountStats } from './service.ts'

export const statsRoutes: RouteModule = (app, deps) => {
  app.get(
    '/api/v1/stats',
    {
      config: { guard: { account: 'read:orders' } },
      schema: {
        tags: ['stats'],
        operationId: 'getStats',
        summary: 'Sales figures per day',
        description:
          'Revenue and paid orders (by payment day) and checkout sessions created, per day in São Paulo time, for a period of at most 366 days (default: the last 30 days), with the totals and the conversion.',
        querystring: StatsQuery,
        response: { 200: z.object({ data: StatsOut }) },
      },
    },
    async (request) => {
      const actor = accountActorOf(request)
      return { data: await accountStats(deps.db, deps, actor.accountId, request.query) }
    },
  )
}
