import { Group, Table } from '@mantine/core'
import type { ReactNode } from 'react'
import classes from './admin-table.module.css'

/** Cell classes for the columns' content: name, email, wideOnly and phoneOnly (one cell standing in for another on phones), icon. */
export const adminTableClasses = classes

export interface AdminTableColumn<Row> {
  header: string
  cell: (row: Row) => ReactNode
  headerClassName?: string
  /** Class of the column's cells. */
  className?: string
}

interface AdminTableProps<Row> {
  /** The table's accessible name. */
  label: string
  rows: readonly Row[]
  rowKey: (row: Row) => string
  columns: AdminTableColumn<Row>[]
  /** A first column (#) numbering the rows. */
  numbered?: boolean
  /** The last column, Action: the row's buttons side by side. */
  actions: (row: Row) => ReactNode
}

/** The dashboard's tables (animations, packs, users): striped, scrolling sideways on narrow screens, tight on phones. */
export function AdminTable<Row>({ label, rows, rowKey, columns, numbered = false, actions }: AdminTableProps<Row>) {
  return (
    <Table.ScrollContainer minWidth={340}>
      <Table striped highlightOnHover className={classes.table} aria-label={label}>
        <Table.Thead>
          <Table.Tr>
            {numbered && <Table.Th className={classes.number}>#</Table.Th>}
            {columns.map((column) => (
              <Table.Th key={column.header} className={column.headerClassName}>
                {column.header}
              </Table.Th>
            ))}
            <Table.Th>Action</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row, index) => (
            <Table.Tr key={rowKey(row)}>
              {numbered && <Table.Td className={classes.number}>{index + 1}</Table.Td>}
              {columns.map((column) => (
                <Table.Td key={column.header} className={column.className}>
                  {column.cell(row)}
                </Table.Td>
              ))}
              <Table.Td>
                <Group gap={6} wrap="nowrap">
                  {actions(row)}
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  )
}
