import { z } from 'zod'
import { EVENT_TYPES } from './events.ts'

export const CreateEndpointBody = z.object({
  url: z.string().max(2000).describe('https URL receiving the events'),
  events: z.array(z.enum(EVENT_TYPES)).min(1).max(EVENT_TYPES.length),
})

export const PatchEndpointBody = z
  .object({
    url: z.string().max(2000).optional(),
    events: z.array(z.enum(EVENT_TYPES)).min(1).max(EVENT_TYPES.length).optional(),
    is_active: z.boolean().optional(),
  })
  .refine((b) => Object.keys(b).length > 0, { message: 'Informe url, events ou is_active' })

export const RetrySinceBody = z.object({
  since: z.iso.datetime({ offset: true }).describe('retry failed deliveries created from then on'),
})

export const EndpointOut = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(z.string()),
  is_active: z.boolean(),
  disabled_reason: z
    .enum(['manual', 'gone', 'failing'])
    .nullable()
    .describe(
      'why an inactive endpoint is off: turned off by hand, answered 410, or failed for 24 h',
    ),
  created_at: z.string(),
})

export const AttemptOut = z.object({
  attempt: z.number(),
  status_code: z.number().nullable(),
  duration_ms: z.number(),
  error: z.string().nullable(),
  response_body: z.string().nullable(),
  created_at: z.string(),
})

export const DeliveryOut = z.object({
  id: z.string(),
  event_id: z.string(),
  event: z.string(),
  status: z.enum(['pending', 'delivered', 'failed']),
  attempts: z.array(AttemptOut),
  next_attempt_at: z.string().nullable(),
  delivered_at: z.string().nullable(),
  created_at: z.string(),
})
