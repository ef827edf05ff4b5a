import { type MetalFacts as Facts, metalFactRows } from "~/catalogue/metal";

/**
 * The metal's facts of a piece as a small definition list: 'Metal: Oro de 14 k (585)',
 * 'Peso: 2.35 g', 'Piedras: …', 'Edición: Limitada, 30 piezas numeradas' — only those the piece
 * has; nothing at all when it has none.
 */
export function MetalFacts({
  facts,
  editionSize = null,
  className = "mt-6",
}: {
  facts: Facts;
  /** A limited edition of this many numbered pieces: said as one more row. */
  editionSize?: number | null;
  className?: string;
}) {
  const rows = metalFactRows(facts);
  if (editionSize !== null)
    rows.push({ term: "Edición", detail: `Limitada, ${editionSize} piezas numeradas` });
  if (rows.length === 0) return null;
  return (
    <dl
      data-testid="metal-facts"
      className={`${className} grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 border-t border-ink/10 pt-4 text-sm`}
    >
      {rows.map((row) => (
        <div key={row.term} className="contents">
          <dt className="text-ink/70">{row.term}</dt>
          <dd>{row.detail}</dd>
        </div>
      ))}
    </dl>
  );
}
