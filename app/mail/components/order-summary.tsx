import { EMAIL_COLORS, EMAIL_FONTS } from "./theme";

/*
 * An order's pieces in an e-mail (decision 47): each with its photo, name (the size is part of the
 * name as bought: 'Anillo Marea talla 7'), edition number, quantity and amount; then the shipping,
 * the total with IVA, and the plan when the buyer paid in months. The mail layer knows no order:
 * app/orders/emails/order-parts.ts maps an `Order` to this.
 */

/** A photo in an e-mail: an absolute address (a mail client has no page to resolve it against). */
export interface EmailPhoto {
  url: string;
  alt: string;
}

export interface EmailOrderLine {
  name: string;
  quantity: number;
  /** The line's amount (unit price × quantity), formatted: `$9,800.00`. */
  amount: string;
  /** 'Pieza 7 de 30', when numbered; else null. */
  edition: string | null;
  /** Null: shown without one (no public address, or a piece without a photo). */
  photo: EmailPhoto | null;
}

export interface EmailOrderSummary {
  lines: readonly EmailOrderLine[];
  /** The 'Envío' line ('Gratis' when free); null for an order without one. */
  shipping: { label: string; amount: string } | null;
  /** `$19,600.00` (IVA included). */
  total: string;
  /** 'Pagado a 6 meses sin intereses'; null for one payment. */
  plan: string | null;
  /** What the last line names, instead of 'Total (IVA incluido)' (a return's e-mails: 'Reembolso'). */
  totalLabel?: string;
}

/** Pixels a piece's photo is shown at (the file is larger: sharp on dense screens). */
export const LINE_PHOTO_SIZE = 64;

const cell = {
  fontFamily: EMAIL_FONTS.sans,
  fontSize: "15px",
  lineHeight: "22px",
  color: EMAIL_COLORS.ink,
  margin: 0,
} as const;

const td = { padding: "8px 0", verticalAlign: "top" } as const;
const amountTd = { ...td, textAlign: "right", whiteSpace: "nowrap", paddingLeft: "12px" } as const;
const small = { ...cell, fontSize: "13px", lineHeight: "20px", color: EMAIL_COLORS.muted } as const;

function LineRow({ line, photos }: { line: EmailOrderLine; photos: boolean }) {
  const rule = { borderBottom: `1px solid ${EMAIL_COLORS.sand}` };
  return (
    <tr>
      {photos && (
        <td style={{ ...td, ...rule, width: `${LINE_PHOTO_SIZE + 12}px` }}>
          {line.photo && (
            <img
              src={line.photo.url}
              alt={line.photo.alt}
              width={LINE_PHOTO_SIZE}
              height={LINE_PHOTO_SIZE}
              style={{
                display: "block",
                width: `${LINE_PHOTO_SIZE}px`,
                height: `${LINE_PHOTO_SIZE}px`,
                objectFit: "cover",
                borderRadius: "6px",
                border: 0,
                backgroundColor: EMAIL_COLORS.sand,
              }}
            />
          )}
        </td>
      )}
      <td style={{ ...td, ...rule, ...cell }}>
        {/* One string: "Anillo Marea talla 7 × 2" reads as one phrase in every client (and in tests). */}
        {`${line.name} × ${line.quantity}`}
        {line.edition && (
          <>
            <br />
            <span style={small}>{line.edition}</span>
          </>
        )}
      </td>
      <td style={{ ...amountTd, ...rule, ...cell }}>{line.amount}</td>
    </tr>
  );
}

export function OrderSummary({ summary }: { summary: EmailOrderSummary }) {
  // A photo column only when some piece has a photo: no empty gutter in an e-mail without them.
  const photos = summary.lines.some((l) => l.photo !== null);
  const span = photos ? 2 : 1;
  const totalTd = { padding: "10px 0 4px", borderTop: `1px solid ${EMAIL_COLORS.ink}`, ...cell } as const;
  return (
    <table
      role="presentation"
      width="100%"
      cellPadding={0}
      cellSpacing={0}
      border={0}
      style={{ width: "100%", borderCollapse: "collapse", margin: "8px 0 16px" }}
    >
      <tbody>
        {summary.lines.map((line, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: an order's lines, in its order, rendered once
          <LineRow key={i} line={line} photos={photos} />
        ))}
        {summary.shipping && (
          <tr>
            <td colSpan={span} style={{ ...td, ...cell }}>
              {summary.shipping.label}
            </td>
            <td style={{ ...amountTd, ...cell }}>{summary.shipping.amount}</td>
          </tr>
        )}
        <tr>
          <td colSpan={span} style={totalTd}>
            {summary.totalLabel ? (
              <strong>{summary.totalLabel}</strong>
            ) : (
              <>
                <strong>Total</strong> (IVA incluido)
              </>
            )}
          </td>
          <td style={{ ...totalTd, textAlign: "right", whiteSpace: "nowrap", paddingLeft: "12px" }}>
            <strong>{`${summary.total} MXN`}</strong>
          </td>
        </tr>
        {summary.plan && (
          <tr>
            <td colSpan={span + 1} style={{ padding: "0 0 6px", ...small }}>
              {summary.plan}
            </td>
          </tr>
        )}
      </tbody>
    </table>
  );
}

/** The same pieces in the text part, one line each, then the shipping, the total and the plan. */
export function orderSummaryText(summary: EmailOrderSummary): string[] {
  return [
    ...summary.lines.map(
      (l) => `- ${l.name} × ${l.quantity}: ${l.amount}${l.edition ? ` (${l.edition})` : ""}`,
    ),
    ...(summary.shipping ? [`- ${summary.shipping.label}: ${summary.shipping.amount}`] : []),
    summary.totalLabel
      ? `${summary.totalLabel}: ${summary.total} MXN`
      : `Total: ${summary.total} MXN, IVA incluido`,
    ...(summary.plan ? [summary.plan] : []),
  ];
}
