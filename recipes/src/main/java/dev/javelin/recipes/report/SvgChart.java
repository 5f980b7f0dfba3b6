package dev.javelin.recipes.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/** One inline SVG line chart: a series per metric over the step axis, with axes and a legend. */
final class SvgChart {
  private static final int W = 560;
  private static final int H = 250;
  private static final int LEFT = 56;
  private static final int RIGHT = 12;
  private static final int TOP = 12;
  private static final int BOTTOM = 28;
  private static final String[] COLORS = {
    "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#17becf"
  };

  private SvgChart() {}

  /**
   * The chart's SVG; with {@code stacked} each series is drawn on top of the ones before it (phase
   * times adding up to the step time).
   */
  static String render(Map<String, NavigableMap<Long, Double>> series, boolean stacked) {
    Map<String, NavigableMap<Long, Double>> drawn = stacked ? stack(series) : series;
    double minX = Double.MAX_VALUE, maxX = -Double.MAX_VALUE;
    double minY = stacked ? 0 : Double.MAX_VALUE, maxY = -Double.MAX_VALUE;
    for (var s : drawn.values()) {
      for (var p : s.entrySet()) {
        minX = Math.min(minX, p.getKey());
        maxX = Math.max(maxX, p.getKey());
        minY = Math.min(minY, p.getValue());
        maxY = Math.max(maxY, p.getValue());
      }
    }
    if (maxX == minX) {
      maxX = minX + 1;
    }
    if (maxY - minY < 1e-12) {
      // a flat series: an axis around its value in its own units, not a ±1e-6 band of noise
      double v = maxY;
      minY = v == 0 ? 0 : v - Math.abs(v) / 2;
      maxY = v == 0 ? 1 : v + Math.abs(v) / 2;
    }
    Axes a = new Axes(minX, maxX, minY, maxY);
    int perRow = drawn.keySet().stream().anyMatch(k -> k.length() > 24) ? 1 : 3;
    int legendRows = (drawn.size() + perRow - 1) / perRow;
    StringBuilder sb = new StringBuilder();
    sb.append(
        String.format(
            Locale.ROOT,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %d %d\" width=\"%d\""
                + " height=\"%d\" role=\"img\">",
            W,
            H + 18 * legendRows,
            W,
            H + 18 * legendRows));
    axes(sb, a);
    int i = 0;
    for (var s : drawn.entrySet()) {
      String color = COLORS[i % COLORS.length];
      sb.append("<polyline fill=\"none\" stroke-width=\"1.6\" stroke=\"").append(color);
      sb.append("\" points=\"").append(points(s.getValue(), a)).append("\"/>");
      int lx = LEFT + (i % perRow) * 170;
      int ly = H + 14 + 18 * (i / perRow);
      sb.append(
          String.format(
              Locale.ROOT,
              "<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" fill=\"%s\"/>"
                  + "<text x=\"%d\" y=\"%d\" class=\"lg\">%s</text>",
              lx,
              ly - 9,
              color,
              lx + 14,
              ly,
              Html.escape(s.getKey())));
      i++;
    }
    return sb.append("</svg>").toString();
  }

  private record Axes(double minX, double maxX, double minY, double maxY) {
    double x(double v) {
      return LEFT + (v - minX) / (maxX - minX) * (W - LEFT - RIGHT);
    }

    double y(double v) {
      return TOP + (maxY - v) / (maxY - minY) * (H - TOP - BOTTOM);
    }
  }

  private static void axes(StringBuilder sb, Axes a) {
    sb.append(
        String.format(
            Locale.ROOT,
            "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" class=\"frame\"/>",
            LEFT,
            TOP,
            W - LEFT - RIGHT,
            H - TOP - BOTTOM));
    for (int t = 0; t <= 4; t++) {
      double yv = a.minY() + (a.maxY() - a.minY()) * t / 4;
      sb.append(
          String.format(
              Locale.ROOT,
              "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" class=\"grid\"/>"
                  + "<text x=\"%d\" y=\"%.1f\" class=\"yt\">%s</text>",
              LEFT,
              W - RIGHT,
              a.y(yv),
              a.y(yv),
              LEFT - 4,
              a.y(yv) + 4,
              tick(yv)));
    }
    // Step ticks: whole steps, about five of them.
    long stride = Math.max(1, (long) Math.ceil((a.maxX() - a.minX()) / 5));
    for (long x = (long) Math.ceil(a.minX()); x <= a.maxX(); x += stride) {
      sb.append(
          String.format(
              Locale.ROOT,
              "<text x=\"%.1f\" y=\"%d\" class=\"xt\">%d</text>",
              a.x((double) x),
              H - BOTTOM + 16,
              x));
    }
  }

  private static String points(NavigableMap<Long, Double> s, Axes a) {
    List<String> pts = new ArrayList<>(s.size());
    s.forEach((x, y) -> pts.add(String.format(Locale.ROOT, "%.1f,%.1f", a.x(x), a.y(y))));
    return String.join(" ", pts);
  }

  /** Running sums over the series in order (a missing value counts as 0). */
  private static Map<String, NavigableMap<Long, Double>> stack(
      Map<String, NavigableMap<Long, Double>> series) {
    Map<String, NavigableMap<Long, Double>> out = new java.util.LinkedHashMap<>();
    NavigableMap<Long, Double> below = new TreeMap<>();
    series.values().forEach(s -> s.keySet().forEach(k -> below.putIfAbsent(k, 0.0)));
    for (var s : series.entrySet()) {
      NavigableMap<Long, Double> sum = new TreeMap<>();
      below.forEach((k, v) -> sum.put(k, v + s.getValue().getOrDefault(k, 0.0)));
      below.putAll(sum);
      out.put(s.getKey(), sum);
    }
    return out;
  }

  private static String tick(double v) {
    double a = Math.abs(v);
    if (a != 0 && (a < 1e-3 || a >= 1e5)) {
      return String.format(Locale.ROOT, "%.2e", v);
    }
    // Three significant digits without trailing zeros: 0.004, 0.25, 4.57, 1250.
    return new java.math.BigDecimal(String.format(Locale.ROOT, "%.3g", v))
        .stripTrailingZeros()
        .toPlainString();
  }
}
