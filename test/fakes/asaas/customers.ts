// POST/GET /v3/customers. Asaas accepts several customers with one cpfCnpj (unless the account
// forbids it), so find-or-create is the client's job: list by cpfCnpj first.
import { onlyDigits } from '../../../src/kit/documents.ts'
import type { Book, Customer } from './book.ts'
import { notFound, Problems } from './errors.ts'
import { newId } from './format.ts'
import { customerJson, listJson } from './json.ts'
import { readCpfCnpj, readRequiredText } from './validate.ts'

function optionalText(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null
}

export function createCustomer(book: Book, body: Record<string, unknown>) {
  const problems = new Problems()
  const name = readRequiredText(problems, body.name, 'name')
  const cpfCnpj = readCpfCnpj(problems, body.cpfCnpj, 'invalid_cpfCnpj')
  const email = optionalText(body.email)
  if (email !== null && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email))
    problems.add('invalid_email', 'O e-mail informado é inválido.')
  problems.throwIfAny()
  const customer: Customer = {
    id: newId.customer(),
    dateCreated: book.today(),
    name: name!,
    cpfCnpj: cpfCnpj!,
    email,
    phone: optionalText(body.phone),
    mobilePhone: optionalText(body.mobilePhone),
    externalReference: optionalText(body.externalReference),
    notificationDisabled: body.notificationDisabled === true,
  }
  book.customers.set(customer.id, customer)
  return customerJson(customer)
}

export function getCustomer(book: Book, id: string) {
  const customer = book.customers.get(id)
  if (!customer) notFound()
  return customerJson(customer)
}

/** Filters `cpfCnpj` (punctuation ignored), `email`, `externalReference`, `name`. */
export function listCustomers(book: Book, query: URLSearchParams) {
  const cpfCnpj = query.get('cpfCnpj')
  const matches = [...book.customers.values()].filter(
    (c) =>
      (cpfCnpj === null || c.cpfCnpj === onlyDigits(cpfCnpj)) &&
      (query.get('email') === null || c.email === query.get('email')) &&
      (query.get('externalReference') === null ||
        c.externalReference === query.get('externalReference')) &&
      (query.get('name') === null || c.name.includes(query.get('name')!)),
  )
  return listJson(matches.map(customerJson), query)
}
