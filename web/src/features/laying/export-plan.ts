// The plan as a PNG file: drawn again at the chosen width on a canvas of its own.
import { drawPlan, planPixelSize, type PlanDrawing } from './draw-plan';

export function exportPlanPng(plan: PlanDrawing, widthPx: number, fileName: string): void {
  const canvas = document.createElement('canvas');
  Object.assign(canvas, planPixelSize(plan.roomCm, widthPx));
  drawPlan(canvas, plan);
  canvas.toBlob((blob) => {
    if (!blob) {
      console.error('Laying preview: the PNG could not be made.');
      return;
    }
    const url = URL.createObjectURL(blob);
    const link = document.createElement('a');
    link.href = url;
    link.download = fileName;
    link.click();
    // The download has its data once the click is handled.
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  }, 'image/png');
}
