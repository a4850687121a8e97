// What a new account does first, as a checklist with a link to where each step happens. The
// overview shows it until every step is done.
import type { VNode } from 'preact'

export interface FirstSteps {
  pixKey: boolean
  product: boolean
  sale: boolean
}

export const allDone = (s: FirstSteps) => s.pixKey && s.product && s.sale

export function FirstStepsList({ steps }: { steps: FirstSteps }): VNode {
  const items: [boolean, VNode][] = [
    [
      steps.pixKey,
      <>
        Cadastre sua chave Pix para receber os saques.{' '}
        <a href="/dashboard/saldo">Cadastrar chave Pix</a>
      </>,
    ],
    [
      steps.product,
      <>
        Crie seu primeiro produto com um preço. <a href="/dashboard/produtos">Criar produto</a>
      </>,
    ],
    [
      steps.sale,
      <>
        Compartilhe o link de checkout do produto e faça a primeira venda.{' '}
        <a href="/dashboard/produtos">Copiar link de checkout</a>
      </>,
    ],
  ]
  return (
    <ol class="steps">
      {items.map(([done, text], i) => (
        <li key={String(i)}>
          <span>{done ? '✓' : '○'}</span>
          <span class={done ? 'done' : undefined}>
            {done ? <span class="sr-only">Feito: </span> : null}
            {text}
          </span>
        </li>
      ))}
    </ol>
  )
}
