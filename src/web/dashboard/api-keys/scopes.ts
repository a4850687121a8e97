// Each API key scope in words (pt-BR), grouped as the creator decides: what a key may read, and
// what it may change. The scope id stays visible beside it: it is what the API's errors name.
import type { Scope } from '../../../modules/accounts/schema.ts'

export const READ_SCOPES: [Scope, string][] = [
  ['read:orders', 'Ver pedidos'],
  ['read:products', 'Ver produtos, cupons, afiliados e coprodutores'],
  ['read:members', 'Ver membros e seus acessos'],
  ['read:subscriptions', 'Ver assinaturas'],
  ['read:refunds', 'Ver reembolsos'],
  ['read:webhooks', 'Ver webhooks e o registro de entregas'],
  ['read:payouts', 'Ver saldos e saques'],
]

export const WRITE_SCOPES: [Scope, string][] = [
  ['write:products', 'Criar e alterar produtos, planos, cupons, afiliados e coprodutores'],
  ['refunds:create', 'Reembolsar pedidos'],
  ['write:members', 'Liberar e revogar acessos de membros'],
  ['write:subscriptions', 'Cancelar assinaturas'],
  ['write:webhooks', 'Criar, alterar e excluir webhooks; reenviar entregas'],
  ['write:payouts', 'Solicitar saques'],
  ['write:profile', 'Trocar a chave Pix'],
]

const LABEL = new Map<string, string>([...READ_SCOPES, ...WRITE_SCOPES])

export const scopeLabel = (scope: string): string => LABEL.get(scope) ?? scope
