import { z } from 'zod'

const Day = z.iso.date().describe('a calendar day in São Paulo time, YYYY-MM-DD')

export const StatsQuery = z.object({
  from: Day.optional().describe('first day (default: 29 days before `to`)'),
  to: Day.optional().describe('last day, included (default: today in São Paulo)'),
})
export type StatsQuery = z.infer<typeof StatsQuery>

export const StatsDay = z.object({
  date: z.string(),
  revenue: z.number().describe('price of the orders paid that day (BRL), refunded later or not'),
  paid_orders: z.number(),
  sessions: z.number().describe('checkout sessions created that day'),
})

export const StatsOut = z.object({
  from: z.string(),
  to: z.string(),
  days: z.array(StatsDay).describe('every day of the period, oldest first, zeros included'),
  revenue: z.number(),
  paid_orders: z.number(),
  sessions: z.number(),
  conversion: z
    .number()
    .nullable()
    .describe('paid_orders ÷ sessions of the period (4 decimals); null without sessions'),
})
export type StatsOut = z.infer<typeof StatsOut>
