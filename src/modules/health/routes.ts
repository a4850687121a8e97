import { sql } from 'kysely'
import { z } from 'zod'
import type { RouteModule } from '../../routes.ts'

export const healthRoutes: RouteModule = (app, deps) => {
  app.get(
    '/health',
    {
      // The load balancer's question: answered however busy the process is.
      config: { guard: 'public', critical: true },
      schema: {
        tags: ['health'],
        operationId: 'getHealth',
        summary: 'Health check',
        description: '200 once the database answers and migrations ran; 503 otherwise.',
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
