import type { PublicShopSettings } from "~/config/env.server";
import {
  ButtonLink,
  contactLine,
  EMAIL_COLORS,
  EMAIL_FONTS,
  Paragraph,
  type RenderedEmail,
  renderEmail,
  ShopEmail,
} from "~/mail/components";
import { catalogueLabel, regimenOf, usoOf } from "../sat-catalogues";

/** What the acknowledgement says of the request and its order. */
export interface InvoiceRequestMail {
  orderId: string;
  /** The order's total as the buyer saw it ("$2,320.00"). */
  total: string;
  rfc: string;
  name: string;
  postalCode: string;
  regimen: string;
  uso: string;
  /** Where the stamped CFDI goes (the e-mail given for the factura). */
  email: string;
  /** Whether this is a correction of a request made before. */
  corrected: boolean;
  /** The last minute the data may still be corrected ("30 nov 2026, 23:59"), or null once closed. */
  until: string | null;
  /** The signed 'Requiero factura' page, when the shop knows its own address. */
  pageUrl: string | null;
}

const named = (entry: { code: string; description: string } | null, code: string) =>
  entry ? catalogueLabel(entry) : code;

/**
 * 'Requiero factura': the buyer's acknowledgement, with the data the factura will carry, what happens
 * next, and until when she may correct it.
 */
export async function invoiceRequestEmail(
  mail: InvoiceRequestMail,
  shop: PublicShopSettings,
): Promise<RenderedEmail> {
  const facts: [string, string][] = [
    ["RFC", mail.rfc],
    ["Nombre o razón social", mail.name],
    ["Código postal fiscal", mail.postalCode],
    ["Régimen fiscal", named(regimenOf(mail.regimen), mail.regimen)],
    ["Uso del CFDI", named(usoOf(mail.uso), mail.uso)],
  ];
  const lead = mail.corrected
    ? `Actualizamos los datos de la factura de tu pedido ${mail.orderId} (${mail.total} MXN, IVA incluido).`
    : `Recibimos tu solicitud de factura del pedido ${mail.orderId} (${mail.total} MXN, IVA incluido).`;
  const next = `Timbramos tu CFDI 4.0 con estos datos y te lo enviamos en PDF y XML a ${mail.email} en los próximos días hábiles.`;
  const fixUntil = mail.until
    ? `Si algo no coincide con tu Constancia de Situación Fiscal, corrígelo hasta el ${mail.until} (hora del centro de México)`
    : null;
  const text = [
    lead,
    "",
    ...facts.map(([label, value]) => `${label}: ${value}`),
    "",
    next,
    ...(fixUntil ? ["", `${fixUntil}${mail.pageUrl ? `: ${mail.pageUrl}` : " desde Mi pedido."}`] : []),
    "",
    contactLine(shop),
  ].join("\n");
  return renderEmail({
    subject: mail.corrected
      ? `Actualizamos los datos de tu factura del pedido ${mail.orderId}`
      : `Recibimos tu solicitud de factura del pedido ${mail.orderId}`,
    text,
    html: (
      <ShopEmail
        shop={shop}
        title={mail.corrected ? "Actualizamos los datos de tu factura" : "Recibimos tu solicitud de factura"}
      >
        <Paragraph>{lead}</Paragraph>
        <table
          role="presentation"
          cellPadding={0}
          cellSpacing={0}
          border={0}
          style={{ borderCollapse: "collapse", fontFamily: EMAIL_FONTS.sans, fontSize: "15px" }}
        >
          <tbody>
            {facts.map(([label, value]) => (
              <tr key={label}>
                <td style={{ padding: "4px 12px 4px 0", color: EMAIL_COLORS.muted }}>{label}</td>
                <td style={{ padding: "4px 0" }}>
                  <strong>{value}</strong>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <Paragraph>{next}</Paragraph>
        {fixUntil && <Paragraph>{`${fixUntil}.`}</Paragraph>}
        {fixUntil && mail.pageUrl && <ButtonLink href={mail.pageUrl}>Ver o corregir mis datos</ButtonLink>}
      </ShopEmail>
    ),
  });
}
