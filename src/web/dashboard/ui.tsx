// Building blocks every dashboard section uses, so forms, lists and messages look and behave
// the same everywhere. Forms write through the HTTP API (browser/forms.ts reads the data-*
// attributes documented on ApiForm); the page shows what the server renders.
import type { VNode } from 'preact'
import { formatBrlAmount } from '../../kit/money.ts'
import type { Children } from '../render.tsx'

export type Data<F extends (...args: never[]) => unknown> = Awaited<ReturnType<F>>

/** R$ 1.234,56 from an API amount in reais. */
export const brl = formatBrlAmount

/** A date as Brazilians read it, in São Paulo time. */
export function when(at: string | Date | null | undefined, withTime = false): string {
  if (!at) return '—'
  return new Date(at).toLocaleString('pt-BR', {
    timeZone: 'America/Sao_Paulo',
    dateStyle: 'short',
    ...(withTime ? { timeStyle: 'short' } : {}),
  })
}

export function Section(props: { id: string; title: string; children: Children }): VNode {
  return (
    <section class="card" aria-labelledby={props.id}>
      <h2 id={props.id}>{props.title}</h2>
      {props.children}
    </section>
  )
}

/** A list, or a sentence saying there is nothing yet (and, optionally, what to do about it). */
export function ListOr(props: { items: VNode[]; empty: string; class?: string }): VNode {
  return props.items.length ? (
    <ul class={props.class}>{props.items}</ul>
  ) : (
    <p class="muted">{props.empty}</p>
  )
}

export interface ApiFormProps {
  /** The API path the form writes to. */
  url: string
  method?: 'POST' | 'PATCH' | 'PUT' | 'DELETE'
  /** Asked (window.confirm) before sending: for destructive and money actions. */
  confirm?: string
  /** Shown in the page's status line after success. */
  done?: string
  /**
   * After success: 'refresh' (default) renders the page again in place; 'go' opens `go` with
   * `{field}` filled from the answer's data (`/dashboard/produtos/{id}`); 'reveal' shows the
   * answer's `reveal` field once, inside the element `revealIn`.
   */
  then?: 'refresh' | 'go' | 'reveal'
  go?: string
  reveal?: string
  revealIn?: string
  id?: string
  class?: string
  label?: string
  children: Children
}

/**
 * A form the browser sends as JSON. Field names may be paths (`plans.0.price`); inputs of type
 * number, and those marked data-type="number", send numbers; a lone checkbox with
 * data-type="boolean" sends true/false, checkboxes sharing a name send the checked values as a
 * list; empty fields are left out, or sent as null when marked data-empty="null". The error
 * line inside the form shows the API's answer beside the form that caused it.
 */
export function ApiForm(props: ApiFormProps): VNode {
  return (
    <form
      id={props.id}
      class={props.class}
      aria-label={props.label}
      data-url={props.url}
      data-method={props.method ?? 'POST'}
      data-confirm={props.confirm}
      data-done={props.done}
      data-then={props.then ?? 'refresh'}
      data-go={props.go}
      data-reveal={props.reveal}
      data-reveal-in={props.revealIn}
    >
      {props.children}
      <p class="form-error" role="alert" />
    </form>
  )
}

/** One labelled input; `hint` is read out with it. */
export function Field(props: {
  id: string
  label: string
  name: string
  type?: 'text' | 'number' | 'email' | 'url' | 'tel' | 'date' | 'password'
  value?: string | number | null | undefined
  required?: boolean
  hint?: string
  inputMode?: 'numeric' | 'decimal' | 'email' | 'url' | 'tel' | 'text'
  min?: string | number
  max?: string | number
  step?: string
  maxLength?: number
  placeholder?: string
  empty?: 'null'
  dataType?: 'number'
}): VNode {
  const hintId = props.hint ? `${props.id}-dica` : undefined
  // Preact types <input> as a union on `type`; this one takes a type chosen at run time.
  const inputAttributes = {
    id: props.id,
    name: props.name,
    type: props.type ?? 'text',
    value: props.value ?? undefined,
    required: props.required,
    inputMode: props.inputMode,
    min: props.min,
    max: props.max,
    step: props.step,
    maxLength: props.maxLength,
    placeholder: props.placeholder,
    'aria-describedby': hintId,
    'data-empty': props.empty,
    'data-type': props.dataType,
  }
  return (
    <p>
      <label for={props.id}>{props.label}</label>
      <input {...(inputAttributes as Record<string, unknown>)} />
      {props.hint ? (
        <span id={hintId} class="muted">
          {props.hint}
        </span>
      ) : null}
    </p>
  )
}

/**
 * A button that sends one request with no body (revoke, retry, cancel). `confirm` is asked
 * first; after success the page renders again in place, or `go` opens.
 */
export function ActionButton(props: {
  url: string
  method?: 'POST' | 'DELETE'
  confirm?: string
  done?: string
  danger?: boolean
  children: Children
}): VNode {
  return (
    <button
      type="button"
      class={props.danger ? 'danger' : 'sec'}
      data-action={props.url}
      data-method={props.method ?? 'POST'}
      data-confirm={props.confirm}
      data-done={props.done}
    >
      {props.children}
    </button>
  )
}

/** Copies `text` to the clipboard (the visible text stays selectable as a fallback). */
export function CopyButton(props: { text: string; label: string }): VNode {
  return (
    <button type="button" class="sec" data-copy={props.text}>
      {props.label}
    </button>
  )
}
