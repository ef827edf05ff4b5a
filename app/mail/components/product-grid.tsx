import { Link } from "@react-email/components";
import type { EmailPhoto } from "./order-summary";
import { EMAIL_COLORS, EMAIL_FONTS } from "./theme";

/*
 * Pieces of the shop in an e-mail (decision 47): a drop's cover over its pieces, two to a row, each
 * with its photo, name and price, linked to its page (the drop's opening; a piece that came back).
 */

export interface EmailProduct {
  name: string;
  price: string;
  /** The piece's page, absolute. */
  url: string;
  image: EmailPhoto | null;
}

/** The card's width in pixels (the files are wider: sharp on dense screens). */
const COVER_WIDTH = 512;
const PIECE_WIDTH = 240;

export function Cover({ photo, alt }: { photo: EmailPhoto; alt: string }) {
  return (
    <img
      src={photo.url}
      alt={photo.alt || alt}
      width={COVER_WIDTH}
      style={{
        display: "block",
        width: "100%",
        maxWidth: `${COVER_WIDTH}px`,
        height: "auto",
        borderRadius: "6px",
        border: 0,
        margin: "0 0 16px",
      }}
    />
  );
}

function ProductCell({ product }: { product: EmailProduct }) {
  return (
    <td style={{ width: "50%", padding: "6px", verticalAlign: "top" }}>
      <Link
        href={product.url}
        style={{
          color: EMAIL_COLORS.ink,
          textDecoration: "none",
          fontFamily: EMAIL_FONTS.sans,
          fontSize: "14px",
          lineHeight: "20px",
        }}
      >
        {product.image && (
          <img
            src={product.image.url}
            alt={product.image.alt || product.name}
            width={PIECE_WIDTH}
            style={{
              display: "block",
              width: "100%",
              maxWidth: `${PIECE_WIDTH}px`,
              height: "auto",
              borderRadius: "6px",
              border: 0,
              margin: "0 0 6px",
            }}
          />
        )}
        {product.name}
        <br />
        <strong>{product.price}</strong>
      </Link>
    </td>
  );
}

/** Pieces two to a row, each linked to its page. Nothing for no pieces. */
export function ProductGrid({ products }: { products: readonly EmailProduct[] }) {
  if (products.length === 0) return null;
  const rows: EmailProduct[][] = [];
  for (let i = 0; i < products.length; i += 2) rows.push(products.slice(i, i + 2));
  return (
    <table
      role="presentation"
      width="100%"
      cellPadding={0}
      cellSpacing={0}
      border={0}
      style={{ width: "100%", borderCollapse: "collapse", margin: "0 0 16px" }}
    >
      <tbody>
        {rows.map((row) => (
          <tr key={row.map((p) => p.url).join(" ")}>
            {row.map((p) => (
              <ProductCell key={p.url} product={p} />
            ))}
            {row.length === 1 && <td style={{ width: "50%" }} />}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The pieces in the text part: one line each, with the price and the page. */
export function productListText(products: readonly EmailProduct[]): string[] {
  return products.map((p) => `- ${p.name}: ${p.price} ${p.url}`);
}
