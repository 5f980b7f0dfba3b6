/** The self-contained report.html a run writes: summary, charts and validation samples. */
package dev.javelin.recipes.report;
