import type { ReactNode } from "react";
import styles from "./Table.module.css";

export interface Column<Row> {
  key: string;
  header: ReactNode;
  render: (row: Row) => ReactNode;
  align?: "left" | "right";
  mono?: boolean;
  width?: string;
}

interface TableProps<Row> {
  columns: Column<Row>[];
  rows: Row[];
  rowKey: (row: Row) => string | number;
  caption?: string;
  testId?: string;
  /** Tighter cells, for a table of many numeric columns. */
  dense?: boolean;
}

function cellClass<Row>(column: Column<Row>): string {
  return [column.align === "right" ? styles.numeric : "", column.mono === true ? styles.mono : ""].join(" ");
}

export function Table<Row>({ columns, rows, rowKey, caption, testId, dense = false }: TableProps<Row>) {
  return (
    <div className={styles.scroll}>
      <table className={dense ? `${styles.table} ${styles.dense}` : styles.table} data-testid={testId}>
        {caption !== undefined && <caption className="visually-hidden">{caption}</caption>}
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.key} scope="col" className={cellClass(c)} style={{ width: c.width }}>
                {c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)}>
              {columns.map((c) => (
                <td key={c.key} className={cellClass(c)}>
                  {c.render(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
