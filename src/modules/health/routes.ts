import { sql } from 'kysely'
import { z } from 'zod'
import type { RouteModule } from '../../routes.ts'

export const healthRoutes: RouteModule = (app, deps) => {
  app.get(
    '/health',
    {
      schema: {
        tags: ['health'],
        security: [],
        response: {
          200: z.object({ status: z.literal('ok') }),
          503: z.object({ status: z.string() }),
        },
      },
    },
    async (_request, reply) => {
      try {
        await sql`SELECT 1 FROM schema_migrations LIMIT 1`.execute(deps.db)
        return { status: 'ok' as const }
      } catch {
        return reply.code(503).send({ status: 'unavailable' })
      }
    },
  )
}
