import { z } from 'zod'
import { Brl, Percent } from '../../kit/http/schemas.ts'

const url = z.url({ protocol: /^https?$/ }).max(2000)
/** Shown on the checkout, which is https in production: an http image would be mixed content. */
const imageUrl = z
  .url({ protocol: /^https$/ })
  .max(2000)
  .describe('The product image shown on the checkout: an https URL, at most 2,000 characters')

export const PlanIn = z.object({
  name: z.string().trim().min(1).max(120),
  price: Brl,
  interval: z.enum(['month', 'year']).optional(),
  interval_count: z.number().int().min(1).max(12).optional(),
})

const PaymentMethods = z
  .array(z.enum(['pix', 'card', 'boleto']))
  .min(1)
  .max(3)
  .refine((methods) => new Set(methods).size === methods.length, 'formas de pagamento repetidas')
  .describe(
    'What the checkout offers. Default: ["pix"] for one_time, ["pix","card","boleto"] for recurring.',
  )
const MaxInstallments = z
  .number()
  .int()
  .min(1)
  .max(12)
  .describe(
    'Most card installments a buyer may choose. Default: 1 for one_time, 12 (interest-free) for recurring.',
  )
const InstallmentInterest = z
  .enum(['seller', 'buyer'])
  .describe(
    "Who pays the installments' interest: `seller` (the buyer pays the price in equal parts) or `buyer` (CARD_INSTALLMENT_INTEREST a month, Price table; one_time products only). Default: seller.",
  )

export const CreateProductBody = z.object({
  name: z.string().trim().min(1).max(200),
  slug: z.string().regex(/^[a-z0-9-]{3,64}$/, 'slug: 3 a 64 caracteres a-z, 0-9 ou hífen'),
  billing: z.enum(['one_time', 'recurring']),
  description: z.string().max(10_000).optional(),
  success_url: url.optional(),
  delivery_url: url.optional(),
  image_url: imageUrl.optional(),
  guarantee_days: z.number().int().min(0).max(365).optional(),
  plans: z.array(PlanIn).min(1).max(20),
  payment_methods: PaymentMethods.optional(),
  max_installments: MaxInstallments.optional(),
  installment_interest: InstallmentInterest.optional(),
})
export type CreateProductInput = z.infer<typeof CreateProductBody>

export const PatchProductBody = z
  .object({
    name: z.string().trim().min(1).max(200),
    description: z.string().max(10_000).nullable(),
    success_url: url.nullable(),
    delivery_url: url.nullable(),
    image_url: imageUrl.nullable(),
    guarantee_days: z.number().int().min(0).max(365),
    status: z.enum(['active', 'archived']),
    payment_methods: PaymentMethods,
    max_installments: MaxInstallments,
    installment_interest: InstallmentInterest,
    /** Plans with an id are updated; without one, added; plans left out are archived. */
    plans: z
      .array(PlanIn.extend({ id: z.uuid().optional() }))
      .min(1)
      .max(20),
  })
  .partial()
export type PatchProductInput = z.infer<typeof PatchProductBody>

export const PlanOut = z.object({
  id: z.string(),
  name: z.string(),
  price: z.number(),
  interval: z.enum(['month', 'year']).nullable(),
  interval_count: z.number().nullable(),
})

export const ProductOut = z.object({
  id: z.string(),
  name: z.string(),
  slug: z.string(),
  billing: z.enum(['one_time', 'recurring']),
  description: z.string().nullable(),
  success_url: z.string().nullable(),
  delivery_url: z.string().nullable(),
  image_url: z.string().nullable(),
  guarantee_days: z.number(),
  status: z.enum(['active', 'archived']),
  plans: z.array(PlanOut),
  payment_methods: z.array(z.enum(['pix', 'card', 'boleto'])),
  max_installments: z.number(),
  installment_interest: z.enum(['seller', 'buyer']),
  checkout_url: z.string(),
  created_at: z.string(),
})
export type ProductOut = z.infer<typeof ProductOut>

export const CreateCouponBody = z.object({
  code: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_-]{2,40}$/, 'código: 2 a 40 letras, números, _ ou -'),
  percent_off: Percent.optional(),
  amount_off: Brl.optional(),
  expires_at: z.iso.datetime({ offset: true }).optional(),
  // At most what the column (int4) holds: a larger number would fail in the database.
  max_redemptions: z.number().int().min(1).max(2_147_483_647).optional(),
})
export type CreateCouponInput = z.infer<typeof CreateCouponBody>

export const CouponOut = z.object({
  id: z.string(),
  code: z.string(),
  percent_off: z.number().nullable(),
  amount_off: z.number().nullable(),
  expires_at: z.string().nullable(),
  max_redemptions: z.number().nullable(),
  redemptions: z.number(),
  created_at: z.string(),
})
