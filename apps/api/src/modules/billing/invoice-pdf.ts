import { createRequire } from "node:module";
import PDFDocument from "pdfkit";
import type { InvoiceDocument } from "./billing.service.ts";

/**
 * One invoice as a PDF (pdfkit, streamed as it is written). The text is set in DejaVu Sans, embedded and subset, so
 * an organization's name or address in Latin, Greek or Cyrillic letters prints as typed; pdfkit's built-in fonts know
 * only Western European letters. Scripts DejaVu lacks (Chinese, Japanese, Korean) would print as empty boxes: see
 * docs/decisions/2026-11-29-billing-first-week.md.
 */
const require = createRequire(import.meta.url);
const FONT = require.resolve("dejavu-fonts-ttf/ttf/DejaVuSans.ttf");
const FONT_BOLD = require.resolve("dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf");

const STATUS: Record<string, string> = {
  paid: "Paid",
  open: "Unpaid",
  void: "Void",
  uncollectible: "Uncollectible",
  draft: "Draft",
};

/** "November 3, 2026" in the organization's time zone (UTC if it were not one Intl knows). */
function dayFormat(timeZone: string): Intl.DateTimeFormat {
  try {
    return new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeZone });
  } catch {
    return new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeZone: "UTC" });
  }
}
const countries = new Intl.DisplayNames(["en"], { type: "region" });

const money = (cents: number, currency: string) =>
  new Intl.NumberFormat("en-US", { style: "currency", currency: currency.toUpperCase() }).format(cents / 100);

function countryName(code: string | null): string | null {
  if (!code) return null;
  try {
    return countries.of(code) ?? code;
  } catch {
    return code;
  }
}

/** The lines of the "Bill to" block: name, the organization when it is another name, address, tax number. */
export function billToLines(doc: InvoiceDocument): string[] {
  const d = doc.billTo;
  const cityLine = [d.postal_code, d.city].filter(Boolean).join(" ");
  return [
    d.name,
    d.name === doc.organizationName ? null : doc.organizationName,
    d.address_line1,
    d.address_line2,
    [cityLine, d.region].filter(Boolean).join(", ") || null,
    countryName(d.country),
    d.tax_id ? `Tax ID: ${d.tax_id}` : null,
  ].filter((line): line is string => Boolean(line));
}

/** A safe file name for the download: the invoice's number, else its id. */
export function invoiceFileName(doc: InvoiceDocument): string {
  const base = (doc.invoice.number ?? doc.invoice.id).replace(/[^A-Za-z0-9._-]+/g, "-");
  return `invoice-${base}.pdf`;
}

/** Writes the invoice and ends the document; the caller streams it (PDFDocument is a Readable). */
export function renderInvoicePdf(doc: InvoiceDocument): PDFKit.PDFDocument {
  const { invoice } = doc;
  const day = dayFormat(doc.timeZone);
  const title = `Invoice ${invoice.number ?? ""}`.trim();
  const pdf = new PDFDocument({
    size: "A4",
    margin: 56,
    info: { Title: title, Author: "Cove", Subject: `Cove invoice for ${doc.organizationName}` },
  });
  pdf.registerFont("body", FONT);
  pdf.registerFont("bold", FONT_BOLD);
  const left = pdf.page.margins.left;
  const width = pdf.page.width - left - pdf.page.margins.right;

  pdf.font("bold").fontSize(22).text("Cove", left, 56);
  pdf.font("body").fontSize(9).fillColor("#475569").text("Help desk software, billed monthly");
  pdf.font("bold").fontSize(18).fillColor("#0f172a").text("Invoice", left, 56, { width, align: "right" });
  const facts: [string, string][] = [
    ["Invoice number", invoice.number ?? invoice.id],
    ["Date", day.format(new Date(invoice.created_at))],
    ["Status", STATUS[invoice.status] ?? invoice.status],
  ];
  pdf.font("body").fontSize(10);
  for (const [label, value] of facts) pdf.text(`${label}: ${value}`, { width, align: "right" });

  pdf.moveDown(2);
  const blockTop = pdf.y;
  pdf.font("bold").fontSize(10).fillColor("#475569").text("Bill to", left, blockTop);
  pdf.font("body").fontSize(11).fillColor("#0f172a");
  for (const line of billToLines(doc)) pdf.text(line, { width: width / 2 });
  const afterBillTo = pdf.y;
  if (invoice.period_start && invoice.period_end) {
    pdf
      .font("bold")
      .fontSize(10)
      .fillColor("#475569")
      .text("Billing period", left + width / 2, blockTop, {
        width: width / 2,
        align: "right",
      });
    pdf
      .font("body")
      .fontSize(11)
      .fillColor("#0f172a")
      .text(`${day.format(new Date(invoice.period_start))} – ${day.format(new Date(invoice.period_end))}`, {
        width: width / 2,
        align: "right",
      });
  }

  // The lines, then the totals.
  let y = Math.max(afterBillTo, pdf.y) + 28;
  const amountWidth = 110;
  const row = (label: string, amount: string, font: "body" | "bold" = "body") => {
    pdf.font(font).fontSize(10).fillColor("#0f172a");
    const height = pdf.heightOfString(label, { width: width - amountWidth - 12 });
    pdf.text(label, left, y, { width: width - amountWidth - 12 });
    pdf.text(amount, left + width - amountWidth, y, { width: amountWidth, align: "right" });
    y += Math.max(height, 14) + 6;
  };
  const rule = () => {
    pdf
      .moveTo(left, y)
      .lineTo(left + width, y)
      .lineWidth(0.5)
      .strokeColor("#cbd5e1")
      .stroke();
    y += 8;
  };
  pdf.font("bold").fontSize(9).fillColor("#475569");
  pdf.text("Description", left, y);
  pdf.text("Amount", left + width - amountWidth, y, { width: amountWidth, align: "right" });
  y += 16;
  rule();
  for (const line of invoice.lines) row(line.description, money(line.amount, invoice.currency));
  rule();
  row("Total", money(invoice.amount_due, invoice.currency), "bold");
  row("Amount paid", money(invoice.amount_paid, invoice.currency));
  // A paid or voided invoice owes nothing.
  const owed = invoice.status === "open" || invoice.status === "uncollectible";
  const due = owed ? Math.max(0, invoice.amount_due - invoice.amount_paid) : 0;
  row("Amount due", money(due, invoice.currency), "bold");

  pdf.end();
  return pdf;
}
