// What /admin hands its browser script (#admin-config JSON), shared by the page and the script.
export interface AdminConfig {
  /** PAYOUT_PROVIDER is automatic (sandbox, asaas): "Pagar via Pix"; else the admin records the end-to-end id. */
  automatic: boolean
}
