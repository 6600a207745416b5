import type { ReactNode } from 'react';

/** A column heading; `num` right-aligns a column of figures (money, counts). */
export type Column = string | { label: string; num: true };

/** A table with a row of column headings (scope="col", so a screen reader names each cell's column). */
export function DataTable(props: {
  columns: Column[];
  caption?: ReactNode;
  /** "visually-hidden" for a caption only screen readers need. */
  captionClass?: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <table className={props.className}>
      {props.caption && <caption className={props.captionClass}>{props.caption}</caption>}
      <thead>
        <tr>
          {props.columns.map((c, i) =>
            typeof c === 'string' ? (
              <th key={i} scope="col">
                {c}
              </th>
            ) : (
              <th key={i} scope="col" className="num">
                {c.label}
              </th>
            ),
          )}
        </tr>
      </thead>
      <tbody>{props.children}</tbody>
    </table>
  );
}
