import { Link, Section, Text } from "@react-email/components";
import type { CSSProperties, ReactNode } from "react";
import { EMAIL_COLORS, EMAIL_FONTS, paragraphStyle } from "./theme";

/*
 * The blocks an e-mail's body is made of (decision 47). Each one that carries a link or an address
 * has a text twin (`…Text`) that the e-mail's plain-text part uses, so both parts say the same.
 * Text given by people (names, addresses) goes in as React children or props: React escapes it.
 */

/** A section's heading inside the body (the frame gives the e-mail's own title). */
export function SectionHeading({ children }: { children: ReactNode }) {
  return (
    <h2
      style={{
        fontFamily: EMAIL_FONTS.serif,
        fontSize: "20px",
        lineHeight: "26px",
        fontWeight: 600,
        color: EMAIL_COLORS.ink,
        margin: "28px 0 8px",
      }}
    >
      {children}
    </h2>
  );
}

/** A paragraph. `strong`: said in bold (what matters most); `muted`: small print. */
export function Paragraph({
  children,
  tone = "normal",
  style,
}: {
  children: ReactNode;
  tone?: "normal" | "strong" | "muted";
  style?: CSSProperties;
}) {
  const toned: CSSProperties =
    tone === "strong"
      ? { fontWeight: 700 }
      : tone === "muted"
        ? { fontSize: "14px", lineHeight: "22px", color: EMAIL_COLORS.muted }
        : {};
  return <Text style={{ ...paragraphStyle, ...toned, ...style }}>{children}</Text>;
}

/** A numbered list of steps (how to pay a voucher). */
export function StepList({ steps }: { steps: readonly string[] }) {
  return (
    <ol style={{ ...paragraphStyle, paddingLeft: "22px" }}>
      {steps.map((step) => (
        <li key={step} style={{ margin: "0 0 6px" }}>
          {step}
        </li>
      ))}
    </ol>
  );
}

/**
 * A link drawn as a button: `solid` for the e-mail's main action, `outline` for a second one. A
 * plain link with padding, not React Email's `Button`: its Outlook-only spacers split the label
 * from the link in the markup; Outlook for Windows shows this one as a plain link, as before.
 */
export function ButtonLink({
  href,
  children,
  variant = "solid",
}: {
  href: string;
  children: string;
  variant?: "solid" | "outline";
}) {
  const solid = variant === "solid";
  return (
    <Section style={{ margin: "8px 0 20px" }}>
      <Link
        href={href}
        style={{
          display: "inline-block",
          fontFamily: EMAIL_FONTS.sans,
          fontSize: "15px",
          lineHeight: "20px",
          fontWeight: 600,
          backgroundColor: solid ? EMAIL_COLORS.ink : EMAIL_COLORS.white,
          color: solid ? EMAIL_COLORS.cream : EMAIL_COLORS.ink,
          border: `1px solid ${EMAIL_COLORS.ink}`,
          borderRadius: "999px",
          padding: "11px 20px",
          textDecoration: "none",
        }}
      >
        {children}
      </Link>
    </Section>
  );
}

/** A plain link inside a sentence. */
export function TextLink({ href, children }: { href: string; children: string }) {
  return (
    <Link href={href} style={{ color: EMAIL_COLORS.gold, textDecoration: "underline" }}>
      {children}
    </Link>
  );
}

/**
 * 'Ver mi pedido': the buyer's order page (a signed link, no account). Renders nothing without an
 * address (a shop with no public address and an order with no recorded site).
 */
export function OrderPageLink({ url }: { url: string | null }) {
  if (!url) return null;
  return (
    <Section style={{ marginTop: "28px", paddingTop: "20px", borderTop: `1px solid ${EMAIL_COLORS.sand}` }}>
      <Paragraph>
        En Mi pedido ves dónde está tu compra, sus piezas y qué sigue, en cualquier momento.
      </Paragraph>
      <ButtonLink href={url} variant="outline">
        Ver mi pedido
      </ButtonLink>
    </Section>
  );
}

/** 'Mi pedido' in the text part: the lines, with a blank line after (none without an address). */
export function orderPageLinkText(url: string | null): string[] {
  return url ? [`Ve tu pedido en cualquier momento (Mi pedido): ${url}`, ""] : [];
}

/** A postal address under its heading ('Lo enviaremos a', 'Dirección de entrega'). */
export function AddressBlock({ heading, lines }: { heading: string; lines: readonly string[] }) {
  if (lines.length === 0) return null;
  return (
    <>
      <SectionHeading>{heading}</SectionHeading>
      <Text style={paragraphStyle}>
        {lines.map((line, i) => (
          // Lines of an address may repeat (two empty ones are dropped before): the index keys them.
          // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list rendered once
          <span key={i}>
            {i > 0 && <br />}
            {line}
          </span>
        ))}
      </Text>
    </>
  );
}

/** The address in the text part: its heading with a colon, its lines, a blank line (none without lines). */
export function addressText(heading: string, lines: readonly string[]): string[] {
  return lines.length ? [`${heading}:`, ...lines, ""] : [];
}
