# Draws of each launch call's submission uniformly within its window (as gl_sched_simulate_spread draws them), over
# omp-streams traces: how many measured runs fall within the range of 32 and 256 draws (+/-10%).
# Usage: python3 omp_racing_draws.py "DIR/omp-*.trace.json" "DIR/per-thread-*.trace.json"
import sys, glob, random, statistics as st
sys.path.insert(0, __import__("os").path.dirname(__file__)); from omp_racing_resim import load
import omp_racing_resim as qsim
def sim_draw(calls, rnd):
    # per-call uniform share of its window, submission = return - U*window
    c2={t:[(a,b) for a,b in v] for t,v in calls.items()}
    ops=[]
    # reuse qsim.sim with where per call: emulate by building calls with zero-width windows at the drawn point
    for t,v in c2.items():
        c2[t]=[(b-rnd.random()*(b-a),)*2 for a,b in v]
    return qsim.sim(c2,8,'tail',where=1.0)[0]/1e3
for pat in sys.argv[1:]:
    for D in (32,256):
        cov=0; n=0
        for f in sorted(glob.glob(pat)):
            calls,kern,mk=load(f); mk/=1e3; rnd=random.Random(1)
            v=[qsim.sim(calls,8,'tail',where=1.0)[0]/1e3]+[sim_draw(calls,rnd) for _ in range(D)]
            lo,hi=min(v),max(v); ok= lo*0.9<=mk<=hi*1.1; cov+=ok; n+=1
        print(pat,D,'covered %d/%d'%(cov,n))
