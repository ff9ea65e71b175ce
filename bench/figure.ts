/** One benchmark figure, measured against a baseline from the same run when it has one. */
export interface Figure {
  name: string;
  value: number;
  unit: string;
  baseline?: { name: string; value: number; unit: string };
  ratio?: number;
}
