// Row types of every table, as both drivers return them (int8 → number, timestamptz → Date).
import type { Generated } from 'kysely'

type Timestamp = Date
type Json = unknown

export interface DB {
  subscriptions: SubscriptionsTable
  settings: { key: string; value: string }
  users: {
    id: string
    name: string
    email: string
    password_hash: string | null
    is_admin: Generated<boolean>
    created_at: Timestamp
  }
  accounts: {
    id: string
    name: string
    created_at: Timestamp
    sale_notifications: Generated<boolean>
    sale_notice_until: Timestamp | null
    sale_notice_from: Timestamp | null
  }
  sale_notice_windows: {
    id: string
    account_id: string
    opened_by: string
    starts_at: Timestamp
    ends_at: Timestamp
  }
  account_users: {
    account_id: string
    user_id: string
    role: 'owner' | 'admin'
    created_at: Timestamp
  }
  user_sessions: {
    token_hash: string
    user_id: string
    created_at: Timestamp
    expires_at: Timestamp
  }
  api_keys: {
    id: string
    account_id: string
    created_by: string
    name: string
    prefix: string
    key_hash: string
    scopes: string[]
    created_at: Timestamp
    last_used_at: Timestamp | null
    revoked_at: Timestamp | null
  }
  idempotency_keys: {
    owner: string
    key: string
    request_hash: string
    response_status: number | null
    response_body: string | null
    created_at: Timestamp
  }
  products: {
    id: string
    account_id: string
    name: string
    slug: string
    billing: 'one_time' | 'recurring'
    description: string | null
    success_url: string | null
    delivery_url: string | null
    /** The checkout's product image, an https URL (migration 0018). */
    image_url: string | null
    guarantee_days: number
    status: Generated<'active' | 'archived'>
    /** What the checkout offers (migration 0012); at least one. */
    payment_methods: PaymentMethod[]
    max_installments: number
    installment_interest: InstallmentInterest
    created_at: Timestamp
    updated_at: Timestamp
  }
  plans: {
    id: string
    product_id: string
    name: string
    price_cents: number
    interval: 'month' | 'year' | null
    interval_count: number | null
    position: number
    archived_at: Timestamp | null
    created_at: Timestamp
  }
  orders: {
    id: string
    account_id: string
    product_id: string
    plan_id: string
    buyer_id: string
    buyer_email: string
    buyer_name: string
    buyer_document: string
    buyer_phone: string
    status: OrderStatus
    amount_cents: number
    currency: Generated<string>
    payment_method: PaymentMethod
    coupon_code: string | null
    affiliate_id: string | null
    affiliate_commission_bps: number | null
    affiliate_commission_cents: number | null
    subscription_id: string | null
    /** Card installments; `interest_cents` is the buyer's interest inside `amount_cents`. */
    installments: Generated<number>
    interest_cents: Generated<number>
    /** The buyer's IP at checkout, which card gateways ask for (renewals reuse the first's). */
    buyer_ip: string | null
    paid_at: Timestamp | null
    refunded_at: Timestamp | null
    expires_at: Timestamp | null
    created_at: Timestamp
    updated_at: Timestamp
  }
  charges: {
    id: string
    order_id: string
    gateway: string
    gateway_charge_id: string
    method: PaymentMethod
    amount_cents: number
    status: 'pending' | 'paid' | 'failed' | 'expired' | 'refunded' | 'chargeback' | 'canceled'
    pix_copy_paste: string | null
    pix_expires_at: Timestamp | null
    created_at: Timestamp
    saved_card: Generated<string | null>
  }
  payment_callbacks: {
    id: string
    gateway: string
    gateway_event_id: string
    gateway_charge_id: string
    action: string
    outcome: string
    payload: Json
    received_at: Timestamp
  }
  sandbox_charges: {
    id: string
    method: PaymentMethod
    amount_cents: number
    status: string
    reference: string
    callback_url: string
    created_at: Timestamp
    refund_failure: Generated<string | null>
    expires_at: Timestamp | null
    saved_card: string | null
    refund_answers_lost: Generated<boolean>
  }
  gateway_checks: {
    id: string
    kind: GatewayCheckKind
    status: 'pending' | 'settled'
    next_attempt_at: Timestamp
    locked_until: Timestamp | null
    attempts: Generated<number>
    last_error: string | null
    note: string | null
    created_at: Timestamp
    settled_at: Timestamp | null
  }
  members: { account_id: string; buyer_id: string; created_at: Timestamp }
  access_grants: {
    id: string
    account_id: string
    buyer_id: string
    product_id: string
    /** Null for an access granted by hand (no order). */
    order_id: string | null
    status: 'active' | 'revoked'
    granted_at: Timestamp
    revoked_at: Timestamp | null
    revoke_reason: string | null
  }
  events: { id: string; account_id: string; type: string; data: Json; created_at: Timestamp }
  webhook_endpoints: {
    id: string
    account_id: string
    url: string
    events: string[]
    secret_sealed: string
    is_active: Generated<boolean>
    created_at: Timestamp
    updated_at: Timestamp
    deleted_at: Timestamp | null
    previous_secret_sealed: Generated<string | null>
    previous_secret_expires_at: Generated<Timestamp | null>
    failing_since: Generated<Timestamp | null>
    disabled_reason: Generated<string | null>
  }
  webhook_deliveries: {
    id: string
    event_id: string
    endpoint_id: string
    account_id: string
    status: 'pending' | 'delivered' | 'failed'
    attempts: Generated<number>
    next_attempt_at: Timestamp
    locked_until: Timestamp | null
    last_status_code: number | null
    last_error: string | null
    delivered_at: Timestamp | null
    created_at: Timestamp
    max_attempts: Generated<number>
  }
  webhook_attempts: {
    id: string
    delivery_id: string
    attempt: number
    status_code: number | null
    duration_ms: number
    error: string | null
    response_body: string | null
    created_at: Timestamp
  }
  emails: {
    id: string
    dedupe_key: string | null
    to_address: string
    subject: string
    text_body: string
    html_body: string
    status: 'pending' | 'sent' | 'failed'
    attempts: Generated<number>
    next_attempt_at: Timestamp
    locked_until: Timestamp | null
    last_error: string | null
    sent_at: Timestamp | null
    created_at: Timestamp
  }
  checkout_sessions: {
    id: string
    product_id: string
    plan_id: string | null
    email: string
    name: string | null
    cpf: string | null
    phone: string | null
    coupon_code: string | null
    order_id: string | null
    recovery_sent_at: Timestamp | null
    created_at: Timestamp
    updated_at: Timestamp
  }
  coupons: {
    id: string
    product_id: string
    code: string
    percent_off_bps: number | null
    amount_off_cents: number | null
    expires_at: Timestamp | null
    max_redemptions: number | null
    redemptions: Generated<number>
    created_at: Timestamp
  }
  rate_limits: { bucket: string; hits: Timestamp[]; allowed: boolean; updated_at: Timestamp }
  login_links: {
    token_hash: string
    user_id: string
    expires_at: Timestamp
    used_at: Timestamp | null
    created_at: Timestamp
  }
  affiliates: {
    id: string
    account_id: string
    product_id: string
    user_id: string
    code: string
    commission_bps: number
    created_at: Timestamp
    updated_at: Timestamp
  }
  coproducers: {
    id: string
    account_id: string
    product_id: string
    user_id: string
    split_bps: number
    created_at: Timestamp
    updated_at: Timestamp
  }
  order_shares: {
    id: string
    order_id: string
    account_id: string
    product_id: string
    kind: ShareKind
    user_id: string
    affiliate_id: string | null
    coproducer_id: string | null
    bps: number
    amount_cents: number
    status: ShareStatus
    allocated_cents: Generated<number>
    earned_at: Timestamp | null
    created_at: Timestamp
    updated_at: Timestamp
  }
  creator_balances: {
    account_id: string
    slot: Generated<number>
    paid_cents: Generated<number>
    refunded_cents: Generated<number>
    withdrawn_cents: Generated<number>
    coproducer_owed_cents: Generated<number>
    affiliate_owed_cents: Generated<number>
    available_cents: Generated<number>
  }
  affiliate_balances: {
    user_id: string
    slot: Generated<number>
    paid_cents: Generated<number>
    rejected_cents: Generated<number>
    withdrawn_cents: Generated<number>
    available_cents: Generated<number>
  }
  coproducer_balances: {
    user_id: string
    slot: Generated<number>
    earned_cents: Generated<number>
    refunded_cents: Generated<number>
    withdrawn_cents: Generated<number>
    available_cents: Generated<number>
  }
  ledger_postings: {
    id: string
    kind: PostingKind
    account_id: string | null
    order_id: string | null
    refund_id: string | null
    withdrawal_id: string | null
    created_at: Timestamp
  }
  ledger_entries: {
    id: Generated<number>
    posting_id: string
    book: LedgerBook
    holder_id: string | null
    account_id: string
    amount_cents: number
    slot: Generated<number>
    created_at: Timestamp
  }
  ledger_withdrawals: {
    withdrawal_id: string
    holder_kind: 'creator' | 'affiliate' | 'coproducer'
    holder_id: string
    amount_cents: number
    status: 'held' | 'released' | 'settled'
    created_at: Timestamp
    updated_at: Timestamp
  }
  withdrawal_allocations: {
    withdrawal_id: string
    share_id: string
    account_id: string
    amount_cents: number
  }
  creator_balance_view: {
    account_id: string
    paid_total: number
    refunded_total: number
    withdrawn_total: number
    coproducer_owed: number
    affiliate_owed: number
    available: number
  }
  coproducer_balance_view: {
    user_id: string
    earned_total: number
    refunded_total: number
    withdrawn: number
    available: number
  }
  refunds: {
    id: string
    account_id: string
    order_id: string
    requested_by: string | null
    amount_cents: number
    reason: string
    status: RefundStatus
    failure_reason: string | null
    gateway_refund_id: string | null
    attempts: Generated<number>
    next_attempt_at: Timestamp
    locked_until: Timestamp | null
    last_error: string | null
    completed_at: Timestamp | null
    failed_at: Timestamp | null
    created_at: Timestamp
    updated_at: Timestamp
    needs_attention_since: Timestamp | null
    completed_after_failure_at: Timestamp | null
    charged_back_at: Timestamp | null
    admin_note: string | null
  }
  sandbox_refunds: {
    id: string
    charge_id: string
    amount_cents: number
    status: 'completed' | 'failed'
    failure_reason: string | null
    created_at: Timestamp
  }
  affiliate_balance_view: {
    user_id: string
    paid_total: number
    rejected_total: number
    pending_count: number
    withdrawn: number
    available: number
  }
  pix_keys: {
    user_id: string
    pix_key: string
    pix_key_type: PixKeyType
    status: 'pending' | 'verified' | 'rejected'
    rejection_reason: string | null
    reviewed_by: string | null
    reviewed_at: Timestamp | null
    created_at: Timestamp
    updated_at: Timestamp
  }
  withdrawals: {
    id: string
    role: WithdrawalRole
    account_id: string | null
    user_id: string
    amount_cents: number
    status: WithdrawalStatus
    pix_key: string
    pix_key_type: PixKeyType
    admin_note: string | null
    transfer_started_at: Timestamp | null
    gateway_transfer_id: string | null
    /** The PIX's end-to-end id, typed by the admin on a manual payout. */
    end_to_end_id: string | null
    created_at: Timestamp
    updated_at: Timestamp
    approved_at: Timestamp | null
    paid_at: Timestamp | null
    rejected_at: Timestamp | null
  }
  sandbox_transfers: {
    id: string
    reference: string
    pix_key: string
    pix_key_type: PixKeyType
    amount_cents: number
    status: 'completed' | 'failed'
    failure_reason: string | null
    /** A slow bank's transfer answers `pending` until then. */
    settles_at: Timestamp | null
    created_at: Timestamp
  }
}

export type PixKeyType = 'cpf' | 'cnpj' | 'email' | 'phone' | 'random'
export type WithdrawalRole = 'creator' | 'coproducer' | 'affiliate'
export type WithdrawalStatus = 'pending' | 'approved' | 'paid' | 'rejected'

export type OrderStatus = 'pending' | 'paid' | 'refunded' | 'chargeback' | 'expired' | 'failed'
export type PaymentMethod = 'pix' | 'card' | 'boleto'
/** Who pays card installments' interest: the seller (interest-free to the buyer) or the buyer. */
export type InstallmentInterest = 'seller' | 'buyer'

export type ShareKind = 'commission' | 'split'
export type ShareStatus = 'pending' | 'paid' | 'rejected' | 'canceled'
export type LedgerBook =
  | 'creator'
  | 'affiliate'
  | 'coproducer'
  | 'gateway'
  | 'refunds_payable'
  | 'payouts_payable'
  | 'platform_receivable'
  | 'platform_revenue'
export type PostingKind =
  | 'sale'
  | 'chargeback'
  | 'refund_reserved'
  | 'refund_paid'
  | 'refund_released'
  | 'refund_completed_late'
  | 'refund_charged_back'
  | 'withdrawal_held'
  | 'withdrawal_released'
  | 'withdrawal_settled'
export type RefundStatus = 'pending' | 'completed' | 'failed'
export type GatewayCheckKind = 'charge' | 'refund' | 'transfer'

export type SubscriptionStatus = 'active' | 'past_due' | 'canceled'

export interface SubscriptionsTable {
  id: string
  account_id: string
  product_id: string
  plan_id: string
  buyer_id: string
  buyer_email: string
  first_order_id: string
  status: SubscriptionStatus
  payment_method: PaymentMethod
  card_reference: string | null
  amount_cents: number
  interval: 'month' | 'year'
  interval_count: number
  current_period_start: Timestamp
  current_period_end: Timestamp
  renewal_order_id: string | null
  cancel_at_period_end: Generated<boolean>
  past_due_since: Timestamp | null
  canceled_at: Timestamp | null
  cancel_reason: string | null
  next_action_at: Timestamp | null
  created_at: Timestamp
  updated_at: Timestamp
}
