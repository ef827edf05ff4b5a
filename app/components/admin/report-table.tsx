import type { ReactNode } from "react";

const th = "px-3 py-2 text-left font-medium";
/** The class of a report's data cell. */
export const reportCell = "px-3 py-2 tabular-nums";

/**
 * A report's table, titled by its caption, with `heads` as the column headings and `children` as
 * its rows. It may be wider than a phone: it scrolls sideways, and the keyboard can reach it. A
 * hidden caption (the table under a chart, which shows the title) leaves the table its own margin.
 */
export function ReportTable({
  title,
  heads,
  className,
  hiddenCaption = false,
  children,
}: {
  title: string;
  heads: readonly string[];
  className: string;
  hiddenCaption?: boolean;
  children: ReactNode;
}) {
  return (
    // biome-ignore lint/a11y/useSemanticElements: the scroll container is a named region inside the report
    <div
      role="region"
      aria-label={title}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable with the keyboard (WCAG 2.1.1)
      tabIndex={0}
      className={`${className} overflow-x-auto focus-visible:outline-2 focus-visible:outline-gold-500`}
    >
      <table className={hiddenCaption ? "mt-2 w-full text-sm" : "w-full text-sm"}>
        <caption className={hiddenCaption ? "sr-only" : "text-left font-serif text-xl"}>{title}</caption>
        <thead>
          <tr>
            {heads.map((h) => (
              <th key={h} scope="col" className={th}>
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

/** A row of a report's table: `head` names it, `children` are its cells. */
export function ReportRow({ head, children }: { head: ReactNode; children: ReactNode }) {
  return (
    <tr className="border-t border-sand">
      <th scope="row" className={th}>
        {head}
      </th>
      {children}
    </tr>
  );
}
