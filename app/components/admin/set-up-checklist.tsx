import { Link } from "react-router";
import type { ChecklistItem } from "~/settings/checklist";

/**
 * The set-up checklist at the top of every admin page until it is empty: open on the page the
 * owner lands on (Pedidos), folded to its one line elsewhere so the section's own work comes first.
 */
export function SetUpChecklist({ items, open }: { items: readonly ChecklistItem[]; open: boolean }) {
  if (items.length === 0) return null;
  const left = items.length === 1 ? "falta 1 paso" : `faltan ${items.length} pasos`;
  return (
    <section
      aria-labelledby="puesta-a-punto"
      className="mb-6 rounded-lg border border-gold-700/50 bg-sand/50 print:hidden"
    >
      {/* Remounted when `open` changes: a new page starts open or folded, whatever was toggled before. */}
      <details key={open ? "open" : "folded"} open={open} className="group">
        <summary className="flex min-h-11 cursor-pointer list-none items-center gap-2 px-4 py-3 text-sm [&::-webkit-details-marker]:hidden">
          <span aria-hidden="true" className="inline-block transition-transform group-open:rotate-90">
            ▸
          </span>
          <span id="puesta-a-punto" className="font-semibold">
            Antes de vender: {left} de la puesta a punto
          </span>
        </summary>
        <ul className="space-y-4 px-4 pb-4">
          {items.map((item) => (
            <li key={item.id} data-checklist-item={item.id} className="border-t border-ink/10 pt-3 text-sm">
              <p className="font-semibold">{item.title}</p>
              <p className="mt-1 text-ink/80">{item.why}</p>
              {item.fix.kind === "page" ? (
                <Link
                  to={item.fix.href}
                  className="mt-2 inline-flex min-h-11 items-center underline hover:text-gold-700"
                >
                  {item.fix.label}
                </Link>
              ) : (
                <p className="mt-2 text-ink/80">
                  <span className="font-medium">Cómo:</span> {item.fix.text}
                </p>
              )}
            </li>
          ))}
        </ul>
      </details>
    </section>
  );
}
