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
  card_token: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe('For gateways that tokenize in the page (the sandbox, Mercado Pago)'),
  installments: z
    .number()
    .int()
    .min(1)
    .max(12)
    .optional()
    .describe("Card only, up to the product's max_installments (1 when absent)"),
  card: z
    .object({
      holder_name: z.string().trim().min(2).max(100),
      number: z
        .string()
        .trim()
        .regex(/^[\d\s-]{13,30}$/, 'número do cartão: 13 a 19 dígitos'),
      expiry_month: z
        .string()
        .trim()
        .regex(/^(0?[1-9]|1[0-2])$/, 'mês: 1 a 12'),
      expiry_year: z
        .string()
        .trim()
        .regex(/^(\d{2}|\d{4})$/, 'ano: AA ou AAAA'),
      cvv: z
        .string()
        .trim()
        .regex(/^\d{3,4}$/, 'CVV: 3 ou 4 dígitos'),
    })
    .optional()
    .describe(
      'Card data, for gateways that take it server-side (Asaas): forwarded once, never stored nor logged',
    ),
  postal_code: z
    .string()
    .trim()
    .max(10)
    .optional()
    .describe("The card holder's CEP (8 digits), required with `card`"),
  address_number: z
    .string()
    .trim()
    .min(1)
    .max(10)
    .optional()
    .describe("The card holder's address number, required with `card`"),
  address: z
    .object({
      postal_code: z.string().trim().max(10),
      street: z.string().trim().min(1).max(120),
      number: z.string().trim().min(1).max(10),
      neighborhood: z.string().trim().min(1).max(80),
      city: z.string().trim().min(1).max(80),
      state: z
        .string()
        .trim()
        .regex(/^[A-Za-z]{2}$/, 'UF: 2 letras'),
    })
    .optional()
    .describe(
      "The buyer's address, for boleto where the gateway requires it (Mercado Pago: a 400 without it)",
    ),
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
      pdf_url: z
        .string()
        .nullable()
        .describe(
          "The gateway's printable boleto (PDF), when it gives one: Asaas `bankSlipUrl`, Mercado Pago `transaction_details.external_resource_url`, the sandbox's /sandbox/boletos/{charge_id}.pdf",
        ),
      url: z.string().nullable().describe('The same as `pdf_url` (kept for older clients)'),
    })
    .nullable(),
  card: z.object({ status: z.string(), last4: z.string() }).nullable(),
  installments: z.number().describe('Card installments (1 for PIX and boleto)'),
  interest: z
    .number()
    .describe("Installments' interest inside `amount`, when the buyer pays it (else 0)"),
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
