// The dashboard's sections, in the order the navigation shows them. Each section's page lives
// in its own file under web/dashboard/ and registers its path in routes.tsx.

export interface NavItem {
  /** Under /dashboard ('' is the overview). */
  path: string
  label: string
}

export const NAV: readonly NavItem[] = [
  { path: '', label: 'Visão geral' },
  { path: '/produtos', label: 'Produtos' },
  { path: '/cupons', label: 'Cupons' },
  { path: '/parceiros', label: 'Afiliados e coprodutores' },
  { path: '/pedidos', label: 'Pedidos' },
  { path: '/membros', label: 'Membros' },
  { path: '/assinaturas', label: 'Assinaturas' },
  { path: '/saldo', label: 'Saldo e saques' },
  { path: '/webhooks', label: 'Webhooks' },
  { path: '/chaves', label: 'Chaves de API' },
  { path: '/configuracoes', label: 'Configurações' },
]
