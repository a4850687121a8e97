import QRCode from 'qrcode'

/** The PIX QR image as a PNG data URL, ready for an <img src>. */
export function pixQrDataUrl(copyPaste: string): Promise<string> {
  return QRCode.toDataURL(copyPaste, { errorCorrectionLevel: 'M', margin: 2, width: 280 })
}
