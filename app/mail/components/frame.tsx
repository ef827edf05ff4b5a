import { Body, Container, Head, Html, Link, Preview, Section, Text } from "@react-email/components";
import type { ReactNode } from "react";
import type { PublicShopSettings } from "~/config/env.server";
import { EMAIL_COLORS, EMAIL_FONTS } from "./theme";

/*
 * The frame every e-mail of the shop shares (decision 47): the brand's name at the top, the e-mail's
 * title, its body, and the shop's contact at the foot. The text part's closing line is
 * `contactLine` (app/mail/layout.ts), which says the same.
 */

export interface ShopEmailProps {
  shop: PublicShopSettings;
  /** The e-mail's heading (the first thing read after the brand). */
  title: string;
  /** What inboxes show beside the subject; the title when absent. */
  preview?: string;
  children: ReactNode;
  /** Below the contact (e.g. the waitlist's 'Date de baja'). */
  footer?: ReactNode;
}

// 14 px, as the body's small print: read on phones, the contact line among it.
const footerText = {
  fontFamily: EMAIL_FONTS.sans,
  fontSize: "14px",
  lineHeight: "22px",
  color: EMAIL_COLORS.muted,
  margin: "0 0 8px",
} as const;

/** Underlined: told from the words around them by more than their colour. */
const footerLink = { color: EMAIL_COLORS.ink, textDecoration: "underline" } as const;

/** The brand's name, as the storefront's header sets it: the serif, in gold. */
const brandText = {
  fontFamily: EMAIL_FONTS.serif,
  fontSize: "26px",
  lineHeight: "32px",
  letterSpacing: "1px",
  color: EMAIL_COLORS.gold,
  margin: 0,
} as const;

export function ShopEmail({ shop, title, preview, children, footer }: ShopEmailProps) {
  return (
    <Html lang="es-MX" dir="ltr">
      <Head>
        <meta name="color-scheme" content="light" />
        <meta name="supported-color-schemes" content="light" />
      </Head>
      <Preview>{preview ?? title}</Preview>
      <Body style={{ margin: 0, padding: "24px 12px", backgroundColor: EMAIL_COLORS.cream }}>
        <Container style={{ maxWidth: "560px" }}>
          <Section style={{ padding: "0 8px 16px", textAlign: "center" }}>
            <Text style={brandText}>{shop.name}</Text>
          </Section>
          <Section
            style={{
              backgroundColor: EMAIL_COLORS.white,
              borderRadius: "8px",
              border: `1px solid ${EMAIL_COLORS.sand}`,
              padding: "28px 24px",
            }}
          >
            <h1
              style={{
                fontFamily: EMAIL_FONTS.serif,
                fontSize: "26px",
                lineHeight: "32px",
                fontWeight: 600,
                color: EMAIL_COLORS.gold,
                margin: "0 0 20px",
              }}
            >
              {title}
            </h1>
            {children}
          </Section>
          <Section style={{ padding: "20px 8px 0", textAlign: "center" }}>
            <Text style={footerText}>
              {"¿Dudas? Escríbenos a "}
              <Link href={`mailto:${shop.email}`} style={footerLink}>
                {shop.email}
              </Link>
              {" o por "}
              <Link href={`https://wa.me/${shop.whatsapp}`} style={footerLink}>
                WhatsApp
              </Link>
              .
            </Text>
            <Text style={{ ...footerText, fontSize: "13px" }}>{shop.name}</Text>
            {footer}
          </Section>
        </Container>
      </Body>
    </Html>
  );
}
