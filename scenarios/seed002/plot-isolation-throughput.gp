# Paper VI pattern #2, 64 nodes: normalized network throughput over time (seed 1).
# Re-run: gnuplot plot-isolation-throughput.gp
set datafile separator ','
set terminal png size 900,500
set output 'isolation-throughput.png'
set key autotitle columnhead
set xlabel 'time (ms)'
set ylabel 'normalized throughput'
set yrange [0:1]
plot for [i=2:*] 'isolation-throughput.csv' using 1:i with lines
