// A stand-in for MercadoPago.js v2 (https://sdk.mercadopago.com/js/v2), served at the fake's
// `/js/v2` so browser tests need no internet. It mimics only the "core methods" surface a
// custom card form calls:
//   new MercadoPago(publicKey, { locale })
//   mp.createCardToken({ cardNumber, cardholderName, cardExpirationMonth, cardExpirationYear,
//                        securityCode, identificationType, identificationNumber }) → { id, … }
//   mp.getPaymentMethods({ bin }) → { paging, results: [{ id, issuer, settings, … }] }
//   mp.getIdentificationTypes() → [{ id: 'CPF', … }, { id: 'CNPJ', … }]
// Like the real library, createCardToken POSTs to `/v1/card_tokens?public_key=…` and rejects
// with the API's `cause` list (`[{ code, description }]`). Not mimicked: cardForm, secure
// fields (mp.fields), getInstallments, getIssuers, Bricks, 3DS and the device fingerprint.

export function sdkScript(apiUrl: string): string {
  return `(function () {
  var API = ${JSON.stringify(apiUrl)};
  function call(method, path, publicKey, body) {
    var sep = path.indexOf('?') === -1 ? '?' : '&';
    return fetch(API + path + sep + 'public_key=' + encodeURIComponent(publicKey), {
      method: method,
      headers: body ? { 'content-type': 'application/json' } : {},
      body: body ? JSON.stringify(body) : undefined,
    }).then(function (res) {
      return res.json().then(function (json) {
        if (res.ok) return json;
        throw json.cause && json.cause.length ? json.cause : [{ code: String(res.status), description: json.message }];
      });
    });
  }
  function MercadoPago(publicKey, options) {
    if (!(this instanceof MercadoPago)) throw new TypeError('MercadoPago must be called with new');
    if (!publicKey) throw new Error('MercadoPago.js - Public key is required');
    this.publicKey = publicKey;
    this.options = options || {};
  }
  MercadoPago.prototype.createCardToken = function (data) {
    data = data || {};
    return call('POST', '/v1/card_tokens', this.publicKey, {
      card_number: data.cardNumber,
      security_code: data.securityCode,
      expiration_month: data.cardExpirationMonth,
      expiration_year: data.cardExpirationYear,
      cardholder: {
        name: data.cardholderName,
        identification: { type: data.identificationType, number: data.identificationNumber },
      },
    });
  };
  MercadoPago.prototype.getPaymentMethods = function (params) {
    return call('GET', '/v1/payment_methods/search?bin=' + encodeURIComponent((params || {}).bin || ''), this.publicKey);
  };
  MercadoPago.prototype.getIdentificationTypes = function () {
    return call('GET', '/v1/identification_types', this.publicKey);
  };
  window.MercadoPago = MercadoPago;
})();
`
}
