import { z } from 'zod'

export const CreateCheckoutBody = z.object({
  product_id: z.uuid(),
  plan_id: z.uuid().optional(),
  session_id: z.uuid().optional(),
  name: z.string().trim().min(2).max(120),
  email: z.string().trim().toLowerCase().pipe(z.email().max(254)),
  cpf: z.string().trim().min(11).max(20).describe('CPF or CNPJ, digits or masked'),
  phone: z
    .string()
    .trim()
    .min(10)
    .max(20)
    .describe('Brazilian phone, digits or formatted, +55 optional'),
  payment_method: z.enum(['pix', 'card', 'boleto']),
  coupon_code: z.string().trim().min(1).max(64).optional(),
  affiliate_code: z.string().trim().min(1).max(64).optional(),
  card_token: z.string().min(1).max(200).optional(),
  installments: z.number().int().min(1).max(12).optional(),
})
export type CreateCheckoutInput = z.infer<typeof CreateCheckoutBody>

export const CheckoutOut = z.object({
  order_id: z.string(),
  status: z.enum(['pending', 'paid', 'failed']),
  amount: z.number(),
  currency: z.string(),
  payment_method: z.enum(['pix', 'card', 'boleto']),
  charge_id: z.string(),
  pix: z.object({ qr_code: z.string(), copy_paste: z.string(), expires_at: z.string() }).nullable(),
  boleto: z
    .object({
      barcode: z.string(),
      digitable_line: z.string(),
      due_date: z.string(),
      barcode_image: z.string().describe('ITF barcode as an SVG data URL'),
    })
    .nullable(),
  card: z.object({ status: z.string(), last4: z.string() }).nullable(),
})
export type CheckoutOut = z.infer<typeof CheckoutOut>

export const OrderStatusOut = z.object({
  id: z.string(),
  status: z.string(),
  paid_at: z.string().nullable(),
  redirect_url: z.string().nullable(),
})

export const CreateSessionBody = z.object({
  product_id: z.uuid(),
  plan_id: z.uuid().optional(),
  email: z.string().trim().toLowerCase().pipe(z.email().max(254)),
})

export const SessionOut = z.object({ session_id: z.string(), session_token: z.string() })

export const PatchSessionBody = z.object({
  session_token: z.string().max(200).optional(),
  name: z.string().trim().max(120).optional(),
  cpf: z.string().trim().max(20).optional(),
  phone: z.string().trim().max(20).optional(),
  coupon_code: z.string().trim().max(64).optional(),
  plan_id: z.uuid().optional().describe('The plan the buyer picked (a plan of the same product)'),
})
