import type { ReactNode } from 'react';

/** A column heading; `num` right-aligns a column of figures (money, counts). */
export type Column = string | { label: string; num: true };

/** A table with a row of column headings (scope="col", so a screen reader names each cell's column). */
export function DataTable(props: {
  columns: Column[];
  caption?: ReactNode;
  className?: string;
  children: ReactNode;
}) {
  return (
    <table className={props.className}>
      {props.caption && <caption>{props.caption}</caption>}
      <thead>
        <tr>
          {props.columns.map((c) =>
            typeof c === 'string' ? (
              <th key={c} scope="col">
                {c}
              </th>
            ) : (
              <th key={c.label} scope="col" className="num">
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
